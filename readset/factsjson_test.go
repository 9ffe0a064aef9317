package readset

import (
	"testing"
)

// TestFactsDigestJSON: the digest of facts as text follows the text of
// each fact read (every occurrence, a missing one too), of those a
// FactFold read names in any case, the names and nullness of every fact
// when the names were read, the whole text when all were; and nothing
// else. A name that is not plain text is refused.
func TestFactsDigestJSON(t *testing.T) {
	facts := func(kv ...string) (string, []JSONFact) {
		text := "{"
		var fs []JSONFact
		for i := 0; i+1 < len(kv); i += 2 {
			fs = append(fs, JSONFact{Name: []byte(kv[i]), Value: []byte(kv[i+1])})
			if i > 0 {
				text += ","
			}
			text += `"` + kv[i] + `":` + kv[i+1]
		}
		return text + "}", fs
	}
	r := New()
	r.Fact("os")
	r.Fact("missing")
	r.FactFold("Role")
	names, _ := r.FactReads()
	base := []string{"os", `"debian"`, "uptime", "1", "role", `"web"`}
	digest := func(names []string, all bool, kv ...string) string {
		t.Helper()
		text, fs := facts(kv...)
		d, ok := FactsDigestJSON([]byte(text), fs, names, all)
		if !ok {
			t.Fatalf("not digested: %s", text)
		}
		return d
	}
	want := digest(names, false, base...)
	for _, tt := range []struct {
		name string
		kv   []string
		same bool
	}{
		{"an unread fact changed", []string{"os", `"debian"`, "uptime", "2", "role", `"web"`}, true},
		{"an unread fact added", []string{"os", `"debian"`, "uptime", "1", "role", `"web"`, "new", "{}"}, true},
		{"a read fact changed", []string{"os", `"redhat"`, "uptime", "1", "role", `"web"`}, false},
		{"a read fact's type changed", []string{"os", `"debian"`, "uptime", "1", "role", `["web"]`}, false},
		{"a missing fact read appears", []string{"os", `"debian"`, "uptime", "1", "role", `"web"`, "missing", "null"}, false},
		{"a read fact twice", []string{"os", `"debian"`, "uptime", "1", "role", `"web"`, "os", `"debian"`}, false},
		{"a fact of the folded name appears", []string{"os", `"debian"`, "uptime", "1", "role", `"web"`, "ROLE", `"x"`}, false},
		{"the folded fact goes", []string{"os", `"debian"`, "uptime", "1"}, false},
		{"a read fact moved", []string{"uptime", "1", "os", `"debian"`, "role", `"web"`}, true},
	} {
		if got := digest(names, false, tt.kv...) == want; got != tt.same {
			t.Errorf("%s: same digest = %v", tt.name, got)
		}
	}
	r.FactNames()
	names, _ = r.FactReads()
	listed := digest(names, false, base...)
	if digest(names, false, "os", `"debian"`, "uptime", "2", "role", `"web"`) != listed {
		t.Error("names read: an unread fact's value changed the digest")
	}
	if digest(names, false, "os", `"debian"`, "uptime", "null", "role", `"web"`) == listed {
		t.Error("names read: a fact become null did not change the digest")
	}
	if digest(names, false, "os", `"debian"`, "role", `"web"`) == listed {
		t.Error("names read: a fact gone did not change the digest")
	}
	if digest(nil, true, base...) == digest(nil, true, "os", `"debian"`, "uptime", "2", "role", `"web"`) {
		t.Error("all facts read: the digest does not follow them")
	}
	for _, name := range []string{`a\u0062`, "é", "a\"b", "a\x01"} {
		if _, ok := FactsDigestJSON([]byte(`{}`), []JSONFact{{Name: []byte(name), Value: []byte("1")}}, []string{"os"}, false); ok {
			t.Errorf("name %q digested", name)
		}
	}
}
