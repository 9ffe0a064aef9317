package server

import (
	"bytes"
	"math/rand/v2"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"testing"

	"github.com/marionette-dev/marionette/readset"
	"github.com/marionette-dev/marionette/site"
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
