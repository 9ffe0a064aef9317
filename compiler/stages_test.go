package compiler

import (
	"context"
	"reflect"
	"testing"
)

var stageNames = []string{"node", "top", "main", "nodebody", "enc", "lazy",
	"overrides", "relationships", "realize", "validate", "containment", "tags", "size"}

// TestStagesInOrder: Result.Stages names every stage of the pipeline in
// order, up to and including the one that failed.
func TestStagesInOrder(t *testing.T) {
	for _, tt := range []struct {
		name, site string
		last       string // the last stage run
		fails      bool
	}{
		{"complete", "define d { notify { $title: } }\nd { 'x': }\nnode default { notify { 'y': } -> Notify['x'] }\nNotify['y'] { message => 'm' }\n", "size", false},
		{"main fails", "fail('no')\n", "main", true},
		{"realize fails", "realize(Notify['nope'])\n", "realize", true},
		{"relationship fails", "Notify['a'] -> Notify['nope']\nnotify { 'a': }\n", "relationships", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			env := runawayEnv(t, tt.site)
			res, err := Compile(context.Background(), env, &Request{Node: "n1"})
			if (err != nil) != tt.fails {
				t.Fatalf("error = %v", err)
			}
			var got []string
			for _, s := range res.Stages {
				got = append(got, s.Name)
				if s.Duration < 0 {
					t.Errorf("stage %s took %v", s.Name, s.Duration)
				}
			}
			n := 0
			for n < len(stageNames) && stageNames[n] != tt.last {
				n++
			}
			if want := stageNames[:n+1]; !reflect.DeepEqual(got, want) {
				t.Errorf("stages = %v, want %v", got, want)
			}
		})
	}
}
