package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestLookupMatchesPuppet runs `marionette lookup` on every lookup of the
// Hiera oracle fixtures (hiera/testdata/oracle/*: a code tree, facts and the
// answers `puppet lookup --render-as json` gave for each line of cases.txt)
// and compares the values, or the errors, with Puppet's.
func TestLookupMatchesPuppet(t *testing.T) {
	fixtures, err := filepath.Glob("../../hiera/testdata/oracle/*/expected.json")
	if err != nil || len(fixtures) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	checked := 0
	for _, exp := range fixtures {
		dir := filepath.Dir(exp)
		data, err := os.ReadFile(exp)
		if err != nil {
			t.Fatal(err)
		}
		var answers []struct {
			Line  string          `json:"line"`
			Value json.RawMessage `json:"value"`
			Error string          `json:"error"`
		}
		if err := json.Unmarshal(data, &answers); err != nil {
			t.Fatal(err)
		}
		for _, a := range answers {
			args := []string{"lookup"}
			args = append(args, shellWords(a.Line)...)
			args = append(args, "--node", "web01.example.com",
				"--environmentpath", filepath.Join(dir, "code", "environments"), "--environment", "production",
				"--facts", filepath.Join(dir, "facts.yaml"),
				"--hiera-config", filepath.Join(dir, "code", "hiera.yaml"), "--render-as", "json")
			name := filepath.Base(dir) + ": " + a.Line
			var stdout, stderr bytes.Buffer
			code := run(args, &stdout, &stderr)
			checked++
			if a.Error != "" {
				if code == 0 {
					t.Errorf("%s: succeeded with %s, Puppet fails: %s", name, stdout.String(), a.Error)
				}
				continue
			}
			if code != 0 {
				t.Errorf("%s: %s; Puppet gives %s", name, strings.TrimSpace(stderr.String()), a.Value)
				continue
			}
			var got, want any
			if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
				t.Errorf("%s: output %q is not JSON: %v", name, stdout.String(), err)
				continue
			}
			if err := json.Unmarshal(a.Value, &want); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s: got %s, Puppet gives %s", name, strings.TrimSpace(stdout.String()), a.Value)
			}
		}
	}
	if checked < 40 {
		t.Errorf("only %d lookups checked; the fixtures should hold at least 40", checked)
	}
	t.Logf("%d lookups compared with puppet lookup", checked)
}

// shellWords splits a cases.txt line as the shell does for the quoting the
// fixtures use: blanks separate words, single quotes keep text literal.
func shellWords(line string) []string {
	var words []string
	var cur strings.Builder
	inWord, quoted := false, false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == '\'':
			quoted = !quoted
			inWord = true
		case (c == ' ' || c == '\t') && !quoted:
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words
}
