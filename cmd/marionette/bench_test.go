package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestBenchCommand(t *testing.T) {
	const node, facts = "web01.example.com", "../../examples/facts/web01.example.com.yaml"
	var catalog, stderr bytes.Buffer
	if code := run([]string{"compile", node, "--environmentpath", "../../examples", "--facts", facts}, &catalog, &stderr); code != 0 {
		t.Fatalf("compile: exit %d: %s", code, stderr.String())
	}
	var cat struct{ Resources []json.RawMessage }
	if err := json.Unmarshal(catalog.Bytes(), &cat); err != nil {
		t.Fatal(err)
	}

	var out bytes.Buffer
	if code := run([]string{"bench", node, "--environmentpath", "../../examples", "--facts", facts, "--runs", "3"}, &out, &stderr); code != 0 {
		t.Fatalf("bench: exit %d: %s", code, stderr.String())
	}
	var res struct {
		Env       string             `json:"env"`
		N         int                `json:"n"`
		Resources int                `json:"resources"`
		FirstMS   float64            `json:"first_ms"`
		MedianMS  float64            `json:"median_ms"`
		MinMS     float64            `json:"min_ms"`
		Stages    map[string]float64 `json:"stage_median_ms"`
		RSSKB     int                `json:"rss_kb"`
	}
	dec := json.NewDecoder(&out)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&res); err != nil {
		t.Fatalf("%v in %s", err, out.String())
	}
	if res.Env != "production" || res.N != 3 || res.Resources != len(cat.Resources) {
		t.Errorf("got %+v; want env production, n 3, %d resources", res, len(cat.Resources))
	}
	if !(res.MinMS > 0 && res.MinMS <= res.MedianMS) || res.RSSKB <= 0 {
		t.Errorf("implausible timings: %+v", res)
	}
	// Every stage of the compile has its median, and together they
	// account for no more than the whole compile.
	sum := 0.0
	for _, ms := range res.Stages {
		sum += ms
	}
	if len(res.Stages) < 3 || sum > res.MedianMS*float64(res.N)+1 {
		t.Errorf("stage medians %v (median %v)", res.Stages, res.MedianMS)
	}

	if code := run([]string{"bench", node, "--environmentpath", "../../examples", "--environment", "nosuch", "--facts", facts}, &out, &stderr); code != 1 ||
		!strings.Contains(stderr.String(), "Could not find a directory environment named 'nosuch'") {
		t.Errorf("unknown environment: exit %d, %s", code, stderr.String())
	}
}
