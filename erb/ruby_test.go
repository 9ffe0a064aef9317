package erb

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/marionette-dev/marionette/value"
)

// The differential tests compare our rendering with Ruby's ERB, recorded in
// golden files by testdata/render-ruby.rb. Run `go test -update` with ruby
// installed to regenerate them.
var update = flag.Bool("update", false, "regenerate golden files with ruby")

// testCase is the JSON input of a differential test.
type testCase struct {
	Template  string           `json:"template,omitempty"` // corpus cases: path under corpusDir
	Vars      map[string]any   `json:"vars"`
	Functions []cannedFunction `json:"functions,omitempty"`
	Note      string           `json:"note,omitempty"`
}

// cannedFunction is a Puppet function call with a fixed answer.
type cannedFunction struct {
	Name   string `json:"name"`
	Args   []any  `json:"args"`
	Result any    `json:"result"`
	Error  string `json:"error,omitempty"`
}

// jsonScope is a Scope backed by a test case.
type jsonScope struct{ tc *testCase }

func (s jsonScope) Variable(name string) (value.Value, bool) {
	v, ok := s.tc.Vars[strings.TrimPrefix(name, "::")]
	if !ok {
		return nil, false
	}
	return fromJSON(v), true
}

// Variables lists the non-undef variables, for scope.to_hash.
func (s jsonScope) Variables() *value.Hash {
	names := make([]string, 0, len(s.tc.Vars))
	for k := range s.tc.Vars {
		names = append(names, k)
	}
	sort.Strings(names)
	b := value.NewHashBuilder(len(names))
	for _, k := range names {
		if v := fromJSON(s.tc.Vars[k]); !value.IsUndef(v) {
			b.Set(value.String(k), v)
		}
	}
	return b.Build()
}

func (s jsonScope) CallFunction(name string, args []value.Value) (value.Value, error) {
	if v, ok := builtinStub(name, args); ok {
		return v, nil
	}
	got := make([]any, len(args))
	for i, a := range args {
		got[i] = toJSON(a)
	}
	for _, f := range s.tc.Functions {
		if f.Name == name && reflect.DeepEqual(normalizeJSON(f.Args), got) {
			if f.Error != "" {
				return nil, fmt.Errorf("%s", f.Error)
			}
			return fromJSON(f.Result), nil
		}
	}
	return nil, fmt.Errorf("no canned result for %s(%v)", name, got)
}

func fromJSON(v any) value.Value {
	switch v := v.(type) {
	case nil:
		return value.Undef
	case bool:
		return value.Boolean(v)
	case json.Number:
		if n, err := v.Int64(); err == nil {
			return value.Integer(n)
		}
		f, _ := v.Float64()
		return value.Float(f)
	case string:
		return value.String(v)
	case []any:
		a := make(value.Array, len(v))
		for i, e := range v {
			a[i] = fromJSON(e)
		}
		return a
	case orderedObject:
		b := value.NewHashBuilder(len(v))
		for _, kv := range v {
			b.Set(value.String(kv.key), fromJSON(kv.val))
		}
		return b.Build()
	}
	panic(fmt.Sprintf("unexpected JSON value %T", v))
}

// toJSON converts a value to the form decodeOrdered produces, for comparing
// function arguments.
func toJSON(v value.Value) any {
	switch v := v.(type) {
	case value.String:
		return string(v)
	case value.Integer:
		return json.Number(fmt.Sprint(int64(v)))
	case value.Float:
		return json.Number(value.FormatFloat(float64(v)))
	case value.Boolean:
		return bool(v)
	case value.Array:
		a := make([]any, len(v))
		for i, e := range v {
			a[i] = toJSON(e)
		}
		return a
	case *value.Hash:
		var o orderedObject
		for i := 0; i < v.Len(); i++ {
			k, e := v.At(i)
			o = append(o, keyVal{fmt.Sprint(toJSON(k)), toJSON(e)})
		}
		return o
	}
	return nil
}

func normalizeJSON(v []any) []any {
	if v == nil {
		return []any{}
	}
	return v
}

// orderedObject keeps the key order of a JSON object, as Puppet hashes do.
type orderedObject []keyVal

type keyVal struct {
	key string
	val any
}

// decodeOrdered decodes JSON keeping object key order and number text.
func decodeOrdered(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			o := orderedObject{}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				v, err := decodeOrdered(dec)
				if err != nil {
					return nil, err
				}
				o = append(o, keyVal{kt.(string), v})
			}
			_, err := dec.Token()
			return o, err
		case '[':
			a := []any{}
			for dec.More() {
				v, err := decodeOrdered(dec)
				if err != nil {
					return nil, err
				}
				a = append(a, v)
			}
			_, err := dec.Token()
			return a, err
		}
	}
	return tok, nil
}

func loadCase(t *testing.T, path string) *testCase {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	raw, err := decodeOrdered(dec)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	tc := &testCase{Vars: map[string]any{}}
	for _, kv := range raw.(orderedObject) {
		switch kv.key {
		case "template":
			tc.Template = kv.val.(string)
		case "note":
			tc.Note = kv.val.(string)
		case "vars":
			for _, v := range kv.val.(orderedObject) {
				tc.Vars[v.key] = v.val
			}
		case "functions":
			for _, f := range kv.val.([]any) {
				var cf cannedFunction
				for _, fkv := range f.(orderedObject) {
					switch fkv.key {
					case "name":
						cf.Name = fkv.val.(string)
					case "args":
						cf.Args = fkv.val.([]any)
					case "result":
						cf.Result = fkv.val
					case "error":
						cf.Error = fkv.val.(string)
					}
				}
				tc.Functions = append(tc.Functions, cf)
			}
		}
	}
	return tc
}

// runRuby renders a template with real Ruby.
func runRuby(t *testing.T, tmpl, caseFile string) string {
	t.Helper()
	cmd := exec.Command("ruby", filepath.Join("testdata", "render-ruby.rb"), tmpl, caseFile)
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil && !strings.HasPrefix(out.String(), "ERROR") {
		t.Fatalf("ruby %s: %v", tmpl, err)
	}
	return out.String()
}

// render renders with this package; errors become "ERROR ..." like the
// Ruby script prints them.
func render(tmpl string, tc *testCase) (string, error) {
	src, err := os.ReadFile(tmpl)
	if err != nil {
		return "", err
	}
	tp, err := Parse(tmpl, src)
	if err != nil {
		return "", err
	}
	return tp.Render(jsonScope{tc})
}

// sameResult compares our result with Ruby's: outputs byte for byte, and
// for a Ruby failure any error that is not about unsupported Ruby.
func sameResult(got string, err error, want string) bool {
	if strings.HasPrefix(want, "ERROR") {
		return err != nil && !strings.Contains(err.Error(), "unsupported Ruby")
	}
	return err == nil && got == want
}

// TestRubyCases renders the focused templates in testdata/cases.
func TestRubyCases(t *testing.T) {
	tmpls, _ := filepath.Glob(filepath.Join("testdata", "cases", "*.erb"))
	if len(tmpls) == 0 {
		t.Fatal("no test cases")
	}
	for _, tmpl := range tmpls {
		base := strings.TrimSuffix(tmpl, ".erb")
		t.Run(filepath.Base(base), func(t *testing.T) {
			caseFile := base + ".json"
			if *update {
				if err := os.WriteFile(base+".out", []byte(runRuby(t, tmpl, caseFile)), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(base + ".out")
			if err != nil {
				t.Fatal(err)
			}
			got, err := render(tmpl, loadCase(t, caseFile))
			if !sameResult(got, err, string(want)) {
				t.Errorf("got %q (err %v)\nwant %q", got, err, want)
			}
		})
	}
}

// TestRubyCorpus renders a sample of the real corpus with plausible
// variables. The golden files hold the SHA-256 of Ruby's output (the
// templates belong to their modules, so neither they nor their output are
// copied here); `-update` records them, `-v` reports the match rate.
func TestRubyCorpus(t *testing.T) {
	if _, err := os.Stat(corpusDir); err != nil {
		t.Skip("no template corpus")
	}
	cases, _ := filepath.Glob(filepath.Join("testdata", "corpus", "*.json"))
	sort.Strings(cases)
	matched, rubyOK, bothOK := 0, 0, 0
	for _, caseFile := range cases {
		base := strings.TrimSuffix(caseFile, ".json")
		tc := loadCase(t, caseFile)
		tmpl := filepath.Join(corpusDir, tc.Template)
		if *update {
			out := runRuby(t, tmpl, caseFile)
			if err := os.WriteFile(base+".sha256", []byte(digest(out)+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(base + ".sha256")
		if err != nil {
			t.Fatal(err)
		}
		wantSum := strings.TrimSpace(string(want))
		got, err := render(tmpl, tc)
		ok := false
		if strings.HasPrefix(wantSum, "ERROR") {
			ok = err != nil && !strings.Contains(err.Error(), "unsupported Ruby")
		} else {
			rubyOK++
			ok = err == nil && digest(got) == wantSum
			if ok {
				bothOK++
			}
		}
		if ok {
			matched++
			continue
		}
		t.Errorf("%s (%s): differs from Ruby (err %v)", filepath.Base(base), tc.Template, err)
		if _, lookErr := exec.LookPath("ruby"); lookErr == nil && testing.Verbose() {
			t.Logf("ruby:\n%s\ngo:\n%s", runRuby(t, tmpl, caseFile), got)
		}
	}
	t.Logf("%d of %d corpus samples agree with Ruby; of the %d Ruby renders without error, %d are byte-identical", matched, len(cases), rubyOK, bothOK)
}

// digest is the golden form of a corpus rendering: the hash of the output,
// or Ruby's error line.
func digest(out string) string {
	if strings.HasPrefix(out, "ERROR") {
		return strings.TrimSpace(out)
	}
	sum := sha256.Sum256([]byte(out))
	return hex.EncodeToString(sum[:])
}

// builtinStub answers common Puppet functions as render-ruby.rb does.
func builtinStub(name string, args []value.Value) (value.Value, bool) {
	str := func(v value.Value) string {
		if s, ok := v.(value.String); ok {
			return string(s)
		}
		if value.IsUndef(v) {
			return ""
		}
		return fmt.Sprint(v)
	}
	switch name {
	case "versioncmp":
		if len(args) != 2 {
			return nil, false
		}
		sep := func(r rune) bool {
			return !(r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
		}
		a, b := strings.FieldsFunc(str(args[0]), sep), strings.FieldsFunc(str(args[1]), sep)
		for i, x := range a {
			if i >= len(b) {
				return value.Integer(1), true
			}
			var c int
			nx, errx := strconv.Atoi(x)
			ny, erry := strconv.Atoi(b[i])
			if errx == nil && erry == nil && !strings.ContainsAny(x+b[i], "+-") {
				c = cmpInt(nx, ny)
			} else {
				c = strings.Compare(x, b[i])
			}
			if c != 0 {
				return value.Integer(c), true
			}
		}
		if len(a) < len(b) {
			return value.Integer(-1), true
		}
		return value.Integer(0), true
	case "apache::bool2httpd":
		switch {
		case len(args) != 1:
			return nil, false
		case args[0] == value.True:
			return value.String("On"), true
		case args[0] == value.False || value.IsUndef(args[0]):
			return value.String("Off"), true
		}
		return args[0], true
	case "memcached::max_memory", "str":
		if len(args) == 1 {
			return args[0], true
		}
	case "warning", "notice", "debug", "info", "err":
		return value.Undef, true
	case "template":
		parts := make([]string, len(args))
		for i, a := range args {
			parts[i] = str(a)
		}
		return value.String("[template " + strings.Join(parts, ",") + "]\n"), true
	}
	return nil, false
}

func cmpInt(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
