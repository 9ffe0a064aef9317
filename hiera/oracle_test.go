package hiera

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/marionette-dev/marionette/dataformat"
	"github.com/marionette-dev/marionette/value"
)

// TestOracle replays testdata/oracle/*/cases.txt and compares every answer
// with the one Puppet 7.23 gave (`puppet lookup --render-as json`, or the
// error of a catalog compile calling lookup()), recorded in expected.json by
// testdata/oracle/gen.sh.
func TestOracle(t *testing.T) {
	fixtures, err := filepath.Glob(filepath.Join("testdata", "oracle", "*", "expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, f := range fixtures {
		dir := filepath.Dir(f)
		if reason, err := os.ReadFile(filepath.Join(dir, "needs-compiler")); err == nil {
			// A custom backend function runs in a compile: cmd/marionette's
			// TestLookupMatchesPuppet checks this fixture.
			t.Logf("%s: %s", filepath.Base(dir), strings.TrimSpace(string(reason)))
			continue
		}
		t.Run(filepath.Base(dir), func(t *testing.T) { checked += runOracleFixture(t, dir) })
	}
	if checked < 40 {
		t.Errorf("only %d oracle cases", checked)
	}
}

func runOracleFixture(t *testing.T, dir string) int {
	raw, err := os.ReadFile(filepath.Join(dir, "expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Line  string          `json:"line"`
		Value json.RawMessage `json:"value"`
		Error string          `json:"error"`
	}
	if err := json.Unmarshal(raw, &cases); err != nil {
		t.Fatal(err)
	}
	factsData, err := os.ReadFile(filepath.Join(dir, "facts.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	facts, err := dataformat.FromYAML(factsData, "facts.yaml")
	if err != nil {
		t.Fatal(err)
	}
	code, err := filepath.Abs(filepath.Join(dir, "code"))
	if err != nil {
		t.Fatal(err)
	}
	cache := NewCache()
	checked := 0
	for _, tc := range cases {
		t.Run(tc.Line, func(t *testing.T) {
			args := shellSplit(tc.Line)
			req, err := requestFromArgs(args)
			if err != nil {
				t.Fatal(err)
			}
			s := NewSession(oracleOptions(cache, code), factScope{facts.(*value.Hash)})
			got, err := s.Lookup(req)
			switch {
			case tc.Error == "not found":
				if err == nil || !strings.Contains(err.Error(), "did not find a value") {
					t.Errorf("got %v, %v; Puppet found nothing", got, err)
				}
			case tc.Error != "":
				if err == nil {
					t.Errorf("got %s, Puppet failed: %s", renderJSON(got), tc.Error)
				} else if !errorMatches(err.Error(), tc.Error, code) {
					t.Errorf("error\n got: %s\nwant: %s", err, tc.Error)
				}
			default:
				if err != nil {
					t.Fatalf("error %v, Puppet gave %s", err, tc.Value)
				}
				want, jerr := dataformat.FromJSON(tc.Value, "expected")
				if jerr != nil {
					t.Fatal(jerr)
				}
				if g, w := renderJSON(got), renderJSON(want); g != w {
					t.Errorf("\n got: %s\nwant: %s", g, w)
				}
			}
			checked++
		})
	}
	return checked
}

func oracleOptions(cache *Cache, code string) Options {
	env := filepath.Join(code, "environments", "production")
	return Options{
		Cache:          cache,
		GlobalConfig:   filepath.Join(code, "hiera.yaml"),
		Codedir:        code,
		EnvironmentDir: env,
		ModuleDir: func(name string) (string, bool) {
			d := filepath.Join(env, "modules", name)
			st, err := os.Stat(d)
			return d, err == nil && st.IsDir()
		},
	}
}

// errorMatches compares our message with Puppet's, ignoring the file
// position we append and the temporary directory Puppet ran in.
func errorMatches(got, want, code string) bool {
	if i := strings.Index(got, " (file: "); i > 0 {
		got = got[:i]
	}
	got = strings.ReplaceAll(got, code, "$WORK/code")
	// YAML syntax errors are worded by different parsers (libyaml via Psych
	// for Puppet); the file must match, the parser's detail may differ.
	if strings.HasPrefix(want, "Unable to parse (") {
		if i := strings.Index(want, "): "); i > 0 {
			return strings.HasPrefix(got, want[:i+3])
		}
	}
	return got == want
}

// factScope exposes facts the way `puppet lookup` does without --compile:
// `facts`, every fact as a top-scope variable, and the environment name.
type factScope struct{ facts *value.Hash }

func (f factScope) Variable(name string) (value.Value, bool) {
	name = strings.TrimPrefix(name, "::")
	switch name {
	case "facts":
		return f.facts, true
	case "environment":
		return value.String("production"), true
	case "trusted":
		return value.EmptyHash, true
	}
	return f.facts.GetString(name)
}

func requestFromArgs(args []string) (Request, error) {
	req := Request{Keys: []string{args[0]}}
	strategy := ""
	var deepOpts []value.Value
	for i := 1; i < len(args); i++ {
		switch args[i] {
		case "--merge":
			i++
			strategy = args[i]
		case "--knock-out-prefix":
			i++
			deepOpts = append(deepOpts, value.String("knockout_prefix"), value.String(args[i]))
		case "--sort-merged-arrays":
			deepOpts = append(deepOpts, value.String("sort_merged_arrays"), value.True)
		case "--merge-hash-arrays":
			deepOpts = append(deepOpts, value.String("merge_hash_arrays"), value.True)
		case "--type":
			i++
			typ, ok := value.BaseType(args[i])
			if !ok {
				return req, fmt.Errorf("unknown type %s", args[i])
			}
			req.Type = typ
		case "--default":
			i++
			req.Default, req.HasDefault = value.String(args[i]), true
		}
	}
	switch {
	case len(deepOpts) > 0:
		req.Merge = value.NewHash(append([]value.Value{value.String("strategy"), value.String(strategy)}, deepOpts...)...)
	case strategy != "":
		req.Merge = value.String(strategy)
	}
	return req, nil
}

// shellSplit splits like Python's shlex.split for the simple lines of cases.txt.
func shellSplit(s string) []string {
	var out []string
	var cur strings.Builder
	inWord := false
	var quote rune
	for _, r := range s {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			} else {
				cur.WriteRune(r)
			}
		case r == '\'' || r == '"':
			quote, inWord = r, true
		case r == ' ' || r == '\t':
			if inWord {
				out = append(out, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if inWord {
		out = append(out, cur.String())
	}
	return out
}

// renderJSON renders a value like `puppet lookup --render-as json`, keeping
// hash order so order differences show.
func renderJSON(v value.Value) string {
	var b strings.Builder
	writeJSON(&b, v)
	return b.String()
}

func writeJSON(b *strings.Builder, v value.Value) {
	switch v := v.(type) {
	case value.String:
		q, _ := json.Marshal(string(v))
		b.Write(q)
	case value.Integer, value.Boolean:
		b.WriteString(value.ToString(v))
	case value.Float:
		q, _ := json.Marshal(float64(v))
		b.Write(q)
	case value.Array:
		b.WriteByte('[')
		for i, e := range v {
			if i > 0 {
				b.WriteByte(',')
			}
			writeJSON(b, e)
		}
		b.WriteByte(']')
	case *value.Hash:
		b.WriteByte('{')
		for i := 0; i < v.Len(); i++ {
			k, e := v.At(i)
			if i > 0 {
				b.WriteByte(',')
			}
			q, _ := json.Marshal(value.ToString(k))
			b.Write(q)
			b.WriteByte(':')
			writeJSON(b, e)
		}
		b.WriteByte('}')
	case *value.Sensitive:
		b.WriteString(`"Sensitive [value redacted]"`)
	default:
		if value.IsUndef(v) {
			b.WriteString("null")
			return
		}
		b.WriteString(value.ToString(v))
	}
}

// TestOracleHieraFunctions checks hiera(), hiera_array(), hiera_hash() and
// automatic parameter lookup on the main fixture; the expectations are what a
// Puppet 7.23 catalog compile of the same calls produced (notify titles).
func TestOracleHieraFunctions(t *testing.T) {
	dir := filepath.Join("testdata", "oracle", "main")
	code, err := filepath.Abs(filepath.Join(dir, "code"))
	if err != nil {
		t.Fatal(err)
	}
	factsData, err := os.ReadFile(filepath.Join(dir, "facts.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	facts, err := dataformat.FromYAML(factsData, "facts.yaml")
	if err != nil {
		t.Fatal(err)
	}
	s := NewSession(oracleOptions(NewCache(), code), factScope{facts.(*value.Hash)})
	tests := []struct {
		fn   HieraFunction
		key  string
		want string
	}{
		{HieraArray, "arr", "[g1, g2, n1, d12, deb, c1]"},
		{HieraHash, "h", "{conly => z, a => 1, deep => {x => 1, l => [1, 2]}, osonly => 1, nonly => y, gonly => x}"},
		{Hiera, "h", "{a => 1, gonly => x}"},
		{Hiera, "mymod::merged_list", "[mod_os]"},
		{HieraArray, "mymod::merged_list", "[mod_os, mod_common]"},
	}
	for _, tc := range tests {
		got, err := s.Hiera(tc.fn, tc.key, nil, false, nil)
		if err != nil || value.ToString(got) != tc.want {
			t.Errorf("%d(%s) = %s, %v; want %s", tc.fn, tc.key, value.ToString(got), err, tc.want)
		}
	}
	if got, err := s.Hiera(Hiera, "nope", value.String("dflt"), true, nil); err != nil || got != value.String("dflt") {
		t.Errorf("hiera default: %v, %v", got, err)
	}
	if got, found, err := s.LookupParam("mymod", "from_env"); err != nil || !found || got != value.String("env wins") {
		t.Errorf("APL mymod::from_env: %v, %v, %v", got, found, err)
	}
}
