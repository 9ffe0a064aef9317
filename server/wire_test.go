package server

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/marionette-dev/marionette/catalog"
	"github.com/marionette-dev/marionette/readset"
	"github.com/marionette-dev/marionette/site"
	"github.com/marionette-dev/marionette/value"
)

// TestParsePostForm: an agent's form body parses as net/http's ParseForm
// parses it (Form, PostForm, the error), escapes, '+', empty parts,
// repeated keys and the URL's query included; other requests are left
// to ParseForm.
func TestParsePostForm(t *testing.T) {
	for _, tt := range []struct {
		name, query, body, contentType string
		handled                        bool
	}{
		{"agent form", "environment=production", catalogForm("a.example.com", "production", `{"name":"a.example.com","values":{"x":"a b+c%"}}`), formType, true},
		{"plus and escapes", "", "a=1+2&b=%41%2b%25&c=", formType, true},
		{"empty parts and keys", "q=1", "&&a=1&&=x&b&", formType, true},
		{"repeated keys, query too", "a=3&b=4", "a=1&a=2", formType, true},
		{"bad escape", "", "a=%zz&b=1", formType, true},
		{"truncated escape", "", "a=1&b=%4", formType, true},
		{"bad escape in a key", "", "%g1=1", formType, true},
		{"semicolon", "", "a=1;b=2&c=3", formType, true},
		{"bad query", "a=%zz", "b=1", formType, true},
		{"another type", "", "a=1", "application/json", false},
		{"form with a charset", "", "a=1", formType + "; charset=utf-8", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			mk := func() *http.Request {
				r, _ := http.NewRequest("POST", "/puppet/v3/catalog/a?"+tt.query, strings.NewReader(tt.body))
				r.Header.Set("Content-Type", tt.contentType)
				return r
			}
			want := mk()
			wantErr := want.ParseForm()
			got := mk()
			handled, err := parsePostForm(got)
			if handled != tt.handled {
				t.Fatalf("handled = %v", handled)
			}
			if !handled {
				return
			}
			if (err == nil) != (wantErr == nil) || err != nil && err.Error() != wantErr.Error() {
				t.Errorf("error %v, want %v", err, wantErr)
			}
			if !reflect.DeepEqual(got.Form, want.Form) || !reflect.DeepEqual(got.PostForm, want.PostForm) {
				t.Errorf("Form %q PostForm %q, want %q %q", got.Form, got.PostForm, want.Form, want.PostForm)
			}
		})
	}
}

// TestAppendUnescape: the facts' second unescape is url.QueryUnescape's.
func TestAppendUnescape(t *testing.T) {
	for _, s := range []string{"", "abc", "a+b", "%7B%22a%22%3A1%7D", "%e2%82%ac", "100%", "%", "%2", "%2x", "a%20b+%2B"} {
		want, wantErr := url.QueryUnescape(s)
		got, ok := appendUnescape([]byte("keep"), s)
		if ok != (wantErr == nil) || ok && string(got) != "keep"+want {
			t.Errorf("%q: %q %v, want %q %v", s, got, ok, want, wantErr)
		}
	}
}

// TestScanWireFacts: facts the scan takes are those site.DecodeFacts
// decodes, stored as they are; what it leaves (not compact, an escaped
// key at the top, the wrong node, too deep, a number out of range, bad
// JSON) goes to the decoder, which decodes or refuses it as before.
func TestScanWireFacts(t *testing.T) {
	const node = "a.example.com"
	deep := strings.Repeat("[", 98) + strings.Repeat("]", 98) // depth 100 with the two objects
	tooDeep := strings.Repeat("[", 99) + strings.Repeat("]", 99)
	for _, tt := range []struct {
		name, doc string
		scans     bool
	}{
		{"agent facts", factsJSON(node, map[string]any{"os": map[string]any{"family": "Debian", "release": []any{1, 2.5, "x"}}, "up": 10, "ok": true, "no": false, "nil": nil}), true},
		{"values null", `{"name":"a.example.com","values":null}`, true},
		{"values absent", `{"name":"a.example.com","timestamp":"t"}`, true},
		{"escapes and UTF-8 in values", `{"name":"a.example.com","values":{"a\u0062":"\"\\\/\b\f\n\r\t\u00e9","é":"ü"}}`, true},
		{"nested as deep as allowed", `{"name":"a.example.com","values":{"d":` + deep + `}}`, true},
		{"numbers", `{"name":"a.example.com","values":{"a":-0,"b":1e3,"c":-1.5E-3,"d":123456789012345678901234,"e":9223372036854775807}}`, true},
		{"spaced", `{"name": "a.example.com","values":{}}`, false},
		{"newline at the end", "{\"name\":\"a.example.com\",\"values\":{}}\n", false},
		{"escaped top key", `{"n\u0061me":"a.example.com","values":{}}`, false},
		{"name in another case", `{"name":"a.example.com","Values":{"a":1}}`, false},
		{"name twice", `{"name":"a.example.com","name":"b.example.com","values":{}}`, false},
		{"wrong node", `{"name":"b.example.com","values":{}}`, false},
		{"no name", `{"values":{}}`, false},
		{"values not a hash", `{"name":"a.example.com","values":[1]}`, false},
		{"too deep", `{"name":"a.example.com","values":{"d":` + tooDeep + `}}`, false},
		{"number out of range", `{"name":"a.example.com","values":{"a":1e999}}`, false},
		{"bad number", `{"name":"a.example.com","values":{"a":01}}`, false},
		{"bad escape", `{"name":"a.example.com","values":{"a":"\x"}}`, false},
		{"control character", "{\"name\":\"a.example.com\",\"values\":{\"a\":\"\x01\"}}", false},
		{"trailing comma", `{"name":"a.example.com","values":{"a":1,}}`, false},
		{"truncated", `{"name":"a.example.com","values":{"a":1}`, false},
		{"after the object", `{"name":"a.example.com","values":{}}x`, false},
		{"not an object", `["a.example.com"]`, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			wf, ok := scanWireFacts([]byte(tt.doc), node)
			if ok != tt.scans {
				t.Fatalf("scanned = %v", ok)
			}
			checkScanAgainstDecoder(t, tt.doc, node)
			if ok && !bytes.Equal(wf.data, []byte(tt.doc)) {
				t.Errorf("stored %q", wf.data)
			}
		})
	}
}

// checkScanAgainstDecoder fails when the scan takes a document the
// decoder refuses, or stores it otherwise than the decoder would.
func checkScanAgainstDecoder(t *testing.T, doc, node string) {
	t.Helper()
	wf, ok := scanWireFacts([]byte(doc), node)
	if !ok {
		return
	}
	facts, compact, err := site.DecodeFacts([]byte(doc), node)
	if err != nil {
		t.Fatalf("scanned, but the decoder says %v: %q", err, doc)
	}
	if !bytes.Equal(compact, wf.data) {
		t.Fatalf("stored %q, the decoder %q", wf.data, compact)
	}
	if facts.Len() != len(wf.fields) && !hasDuplicateNames(wf.fields) {
		t.Fatalf("%d facts scanned, %d decoded: %q", len(wf.fields), facts.Len(), doc)
	}
}

func hasDuplicateNames(fs []readset.JSONFact) bool {
	seen := map[string]bool{}
	for _, f := range fs {
		if seen[string(f.Name)] {
			return true
		}
		seen[string(f.Name)] = true
	}
	return false
}

// TestScanWireFactsMutated: no mutation of an agent's facts (a byte
// changed, dropped or doubled) scans unless the decoder decodes it.
func TestScanWireFactsMutated(t *testing.T) {
	const node = "a.example.com"
	base := factsJSON(node, map[string]any{"os": map[string]any{"family": "Debian", "release": map[string]any{"major": "12", "full": "12.5"}}, "up": 10, "load": 0.25, "ok": true, "x": nil, "list": []any{"a", 1, -2.5e3}})
	alphabet := []byte(`{}[]",:\ 0123456789.eE+-tfnulr/ab` + "\x00\x7f\xc3")
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 20000; i++ {
		b := []byte(base)
		p := rng.IntN(len(b))
		switch rng.IntN(3) {
		case 0:
			b[p] = alphabet[rng.IntN(len(alphabet))]
		case 1:
			b = append(b[:p], b[p+1:]...)
		default:
			b = append(b[:p+1], b[p:]...)
		}
		checkScanAgainstDecoder(t, string(b), node)
	}
}

// TestNodeAnswerFromFactsText: the node answer written from the stored
// facts' text is the one written from their values decoded, whatever the
// facts hold; text that writing would change (escapes, other number
// forms, a repeated name) is decoded, canonical text is not.
func TestNodeAnswerFromFactsText(t *testing.T) {
	f := newFixture(t)
	const node = "db01.example.com"
	for _, tt := range []struct {
		name, values string
		fromText     bool
	}{
		{"plain", `{"os":{"family":"Debian","release":{"major":"12"}},"up":10,"big":1234567890123456789,"load":0.25,"ok":true,"no":false,"nil":null,"list":[1,"a",[],{}],"odd":"<&>/ ~"}`, true},
		{"empty", `{}`, true},
		{"an environment fact", `{"a":1,"environment":"elsewhere","b":2}`, true},
		{"floats written otherwise", `{"a":1e3}`, false},
		{"a float Puppet writes so", `{"a":1000.0}`, true},
		{"minus zero", `{"a":-0}`, false},
		{"a large integer", `{"a":123456789012345678901234}`, false},
		{"an escape", `{"a":"x\ny"}`, false},
		{"UTF-8", `{"a":"é"}`, false},
		{"an escaped name", `{"\u00e9":1}`, false},
		{"a name repeated", `{"a":1,"a":2}`, false},
		{"a nested name repeated", `{"a":{"b":1,"b":2}}`, false},
		{"a large nested hash", `{"a":{"k1":1,"k2":1,"k3":1,"k4":1,"k5":1,"k6":1,"k7":1,"k8":1,"k9":1,"k10":1,"k11":1,"k12":1,"k13":1,"k14":1,"k15":1,"k16":1,"k17":1}}`, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			doc := `{"name":"` + node + `","values":` + tt.values + `}`
			if err := writeFileAtomic(f.srv.factsDir, node+".yaml", []byte(site.CachedFactsTag+doc+"\n")); err != nil {
				t.Fatal(err)
			}
			sf := f.srv.storedFacts(node)
			if _, ok := sf.nodeParameters("production"); ok != tt.fromText {
				t.Errorf("written from the text = %v", ok)
			}
			r := f.do(node, "GET", "/puppet/v3/node/"+node+"?environment=production", nil, "")
			if r.status != 200 {
				t.Fatalf("node: %d %s", r.status, r.body)
			}
			if want := nodeAnswerFromValues(t, node, "production", doc); r.body != want {
				t.Errorf("node answer\n%s\nwant\n%s", r.body, want)
			}
		})
	}
	// No facts stored: the environment alone.
	if err := os.Remove(filepath.Join(f.srv.factsDir, node+".yaml")); err != nil {
		t.Fatal(err)
	}
	r := f.do(node, "GET", "/puppet/v3/node/"+node+"?environment=production", nil, "")
	if want := nodeAnswerFromValues(t, node, "production", `{"name":"`+node+`","values":{}}`); r.body != want {
		t.Errorf("node answer without facts\n%s\nwant\n%s", r.body, want)
	}
}

// nodeAnswerFromValues is the node answer of a node classified into env
// without parameters or classes, its stored facts doc decoded.
func nodeAnswerFromValues(t *testing.T, node, env, doc string) string {
	facts, _, err := site.DecodeFacts([]byte(doc), node)
	if err != nil {
		t.Fatal(err)
	}
	b := value.NewHashBuilder(facts.Len() + 1)
	for i := 0; i < facts.Len(); i++ {
		b.Set(facts.At(i))
	}
	b.Set(value.String("environment"), value.String(env))
	rec := httptest.NewRecorder()
	writeJSON(rec, 200, struct {
		Name        string          `json:"name"`
		Environment string          `json:"environment"`
		Parameters  json.RawMessage `json:"parameters"`
		Classes     json.RawMessage `json:"classes"`
	}{node, env, catalog.ValueJSON(b.Build()), json.RawMessage("[]")})
	return rec.Body.String()
}
