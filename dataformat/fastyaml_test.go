package dataformat

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/marionette-dev/marionette/value"
)

// fastYAMLCases are small documents with whether the fast path must accept
// them. Whatever the answer, FromYAML must give what yaml.v3 gives.
var fastYAMLCases = []struct {
	name string
	yaml string
	fast bool
}{
	// Accepted.
	{"empty", "", true},
	{"blank lines", "\n  \n\n", true},
	{"only comments", "# a\n  # b\n", true},
	{"only doc start", "---\n", true},
	{"doc start comment", "--- # header\na: 1\n", true},
	{"doc end", "a: 1\n...\n# trailer\n", true},
	{"plain scalar doc", "hello world", true},
	{"indented root", "  a: 1\n  b: 2\n", true},
	{"simple map", "a: 1\nb: two\nc: 3.5\n", true},
	{"no final newline", "a: 1\nb: 2", true},
	{"psych scalars", "a: yes\nb: off\nc: ~\nd: null\ne: 017\nf: 0x1f\ng: 1:30\nh: 1_000\ni: .inf\nj: -.inf\nk: .nan\nl: 1e3\nm: +12\nn: 0b101\n", true},
	{"nested map", "a:\n  b:\n    c: 1\n  d: 2\ne: 3\n", true},
	{"null values", "a:\nb:   \nc: # comment\nd:\n", true},
	{"null at end", "a:\n  b:", true},
	{"sequence", "- a\n- b\n- 3\n", true},
	{"empty seq entries", "-\n- \n- # c\n-", true},
	{"seq under key", "a:\n  - x\n  - y\nb: 1\n", true},
	{"indentless seq", "a:\n- x\n- y\nb:\n- z\n", true},
	{"indentless seq nested", "a:\n  b:\n  - x\n  c: 1\n", true},
	{"compact maps", "- name: a\n  value: 1\n- name: b\n  value:\n    x: y\n", true},
	{"compact map indentless value", "- a:\n  - x\n  b: 1\n", true},
	{"nested compact seq", "- - a\n  - b\n- - c\n", true},
	{"wide dash", "-   a: 1\n    b: 2\n-  x\n", true},
	{"seq item block", "-\n  a: 1\n-\n  - x\n", true},
	{"comments everywhere", "# top\na: 1 # one\n  # indented\n# col0\nb:\n  # before\n  - x # x\n\n  - y\n", true},
	{"hash in plain", "a: b#c\nd: e # f\n", true},
	{"colon in plain", "a: b:c\nurl: http://x.example/y\nk:v: w\n", true},
	{"space before colon", "a : 1\n'b'  : 2\n", true},
	{"double colon key", "a:: 1\n", true},
	{"indicators inside plain", "a: b, c [d] {e} & * ! | > % @ ` 'f' \"g\"\n", true},
	{"dash plain", "a: -1\nb: -foo\nc: ---\n-d: e\n", true},
	{"question plain", "a: ?b\n", true},
	{"symbol key", ":sym: 1\n", true},
	{"symbol value", "a: :sym\n", true},
	{"quoted key", "\"a b\": 1\n'c''d': 2\n\"\": 3\n", true},
	{"single quoted", "a: 'it''s # not a comment'\nb: ''\n", true},
	{"double quoted", "a: \"x \\\"y\\\" \\\\ \\t \\n \\0 \\e \\N \\_ \\L \\P\"\nb: \"\"\n", true},
	{"double quoted hex", "a: \"\\x41\\u00e9\\U0001F600\"\n", true},
	{"quoted numbers stay strings", "a: '1'\nb: \"yes\"\n", true},
	{"quoted then comment", "a: 'x' # c\nb: \"y\"   \n", true},
	{"empty flow", "a: []\nb: {}\nc: [ ]\nd: { }\n", true},
	{"flow seq", "a: [x, 'y', \"z\", 1, ~]\n", true},
	{"flow seq trailing comma", "a: [x, y, ]\n", true},
	{"flow seq spaces", "a: [ a b , c ]\n", true},
	{"flow root", "[a, b]\n", true},
	{"flow in seq", "- [a]\n- []\n- {}\n", true},
	{"merge key", "base:\n  k: 1\nm:\n  <<:\n    k: 2\n  j: 3\n", true},
	{"merge not mapping", "m:\n  <<: 1\n", true},
	{"merge value plain", "a: <<\n", true},
	{"int keys", "1: a\n2.5: b\nyes: c\n~: d\n", true},
	{"duplicate keys", "a: 1\nb: 2\na: 3\n", true},
	{"date error", "a:\n  b: 2020-01-02\n", true},
	{"time error", "a:\n- x\n- 2001-12-14 21:59:43.10 -5\n", true},
	{"slash escape", "a: \"\\/\"\n", false},
	{"symbol error", "- a\n- :sym\n", true},
	{"unicode", "naïve: café\nkey: \"日本\"\n'ü': x\n", true},
	{"unicode column", "ü: [a, 2020-01-01]\n", true},
	{"hiera data", "---\nprofile::base::motd: \"hello\"\nprofile::base::admins:\n  - alice\n  - bob\nlookup_options:\n  '^profile::.*':\n    merge: deep\n", true},
	{"trailing spaces", "a: 1   \nb:  \n  - x  \n", true},

	// Declined.
	{"tab indent", "a:\n\tb: 1\n", false},
	{"tab in value", "a: b\tc\n", false},
	{"crlf", "a: 1\r\nb: 2\r\n", false},
	{"bom", "\ufeffa: 1\n", false},
	{"nel", "a: b\u0085c\n", false},
	{"control char", "a: b\x01c\n", false},
	{"invalid utf8", "a: \xff\n", false},
	{"anchor alias", "a: &x 1\nb: *x\n", false},
	{"merge alias", "a: &x {k: 1}\nb:\n  <<: *x\n", false},
	{"tag", "a: !!str 1\n", false},
	{"custom tag", "a: !foo 1\n", false},
	{"directive", "%YAML 1.1\n---\na: 1\n", false},
	{"two documents", "a: 1\n---\nb: 2\n", false},
	{"doc start value", "--- a\n", false},
	{"complex key", "? a\n: b\n", false},
	{"literal", "a: |\n  x\n  y\n", false},
	{"folded", "a: >\n  x\n  y\n", false},
	{"multi-line plain", "a: b\n  c\n", false},
	{"multi-line plain seq", "- a\n  b\n", false},
	{"multi-line plain root", "a\nb\n", false},
	{"multi-line quoted", "a: \"b\n  c\"\n", false},
	{"multi-line single", "a: 'b\n  c'\n", true},
	{"multi-line single, Facter's sshfp", "sshfp_rsa: 'SSHFP 1 1 6e38\n\n  SSHFP 1 2 55e0'\nb: 1\n", true},
	{"multi-line single, blank lines and spaces", "a:\n  b: 'x  \n   \n\n      y z '' \n   w'\n  c: 'd'\n", true},
	{"multi-line single, quote on its own line", "a: 'b\n  '\n", true},
	{"multi-line single, a break at its start", "a: '\n  b'\n", true},
	{"multi-line single, then a comment", "a: 'b\n  c' # d\ne: f\n", true},
	{"multi-line single, not indented", "a: 'b\nc'\n", false},
	{"multi-line single, at its key's column", "a:\n  b: 'c\n  d'\n", false},
	{"multi-line single, a document marker", "a: 'b\n---\n  c'\n", false},
	{"multi-line single, unterminated", "a: 'b\n  c\n", false},
	{"multi-line single key", "'a\n  b': c\n", false},
	{"multi-line single in a sequence", "- 'a\n  b'\n", false},
	{"multi-line single in a flow", "a: ['b\n  c']\n", false},
	{"multi-line flow", "a: [b,\n  c]\n", false},
	{"flow map", "a: {b: 1, 'c' : [d, {e: f}], \"g\": \"h\", i: {}, }\n", true},
	{"nested flow", "a: [[b], [], {c: d}]\n", true},
	{"doc start flow", "--- {}\n", true},
	{"doc start flow seq", "--- [a, b] # c\n...\n", true},
	{"flow map json colon", "a: {\"b\":1}\n", false},
	{"flow map no value", "a: {b}\n", false},
	{"flow map empty value", "a: {b: }\n", false},
	{"flow pair in seq", "a: [b: c]\n", false},
	{"flow mismatched", "a: [b}\n", false},
	{"flow empty item", "a: [,]\n", false},
	{"escaped newline", "a: \"b\\\n  c\"\n", false},
	{"bad escape", "a: \"\\q\"\n", false},
	{"surrogate escape", "a: \"\\ud800\"\n", false},
	{"huge escape", "a: \"\\U80000000\"\n", false},
	{"long key", strings.Repeat("k", 1030) + ": 1\n", false},

	// Errors (yaml.v3 reports them; the fast path declines).
	{"bad indent", "a:\n    b: 1\n  c: 2\n", false},
	{"mapping in value", "a: b: c\n", false},
	{"quoted then junk", "a: 'b' c\n", false},
	{"quoted then hash", "a: 'b'#c\n", false},
	{"seq in value", "a: - b\n", false},
	{"seq after map", "a: 1\n- b\n", false},
	{"map after seq", "- a\nb: 1\n", false},
	{"deeper after value", "a: 1\n  b: 2\n", false},
	{"dedent between", "- a:\n    b: 1\n - c\n", false},
	{"unterminated quote", "a: \"b\n", false},
	{"unterminated flow", "a: [b\n", false},
	{"bad plain start", "a: @b\n", false},
	{"backquote start", "a: `b\n", false},
	{"close bracket", "a: ]\n", false},
	{"comma start", ", a\n", false},
	{"colon start", ": a\n", false},
	{"plain then colon eol", "a: b:\n", false},
	{"flow as key", "[a]: b\n", false},
	{"key without colon", "a: 1\nb\n", false},
}

// fastPath converts data the way FromYAML does when the fast path accepts it.
func fastPath(data []byte) (v value.Value, err error, ok bool) {
	doc, ok := parseFastYAML(data)
	if !ok {
		return nil, nil, false
	}
	v, err = FromYAMLNode(doc, "t.yaml")
	return v, err, true
}

// checkFastYAML reports whether the fast path accepted data and fails t when
// its result (value or error) differs from yaml.v3's, or when its node tree
// differs from yaml.v3's in anything the converter reads.
func checkFastYAML(t *testing.T, data []byte) bool {
	t.Helper()
	fv, ferr, ok := fastPath(data)
	if !ok {
		return false
	}
	sv, serr := fromYAMLSlow(data, "t.yaml")
	if errString(ferr) != errString(serr) {
		t.Fatalf("input %q:\nfast error: %v\nyaml.v3 error: %v", data, ferr, serr)
	}
	if ferr == nil && canonValue(fv) != canonValue(sv) {
		t.Fatalf("input %q:\nfast:    %s\nyaml.v3: %s", data, canonValue(fv), canonValue(sv))
	}
	doc, _ := parseFastYAML(data)
	var want yaml.Node
	if err := yaml.NewDecoder(bytes.NewReader(data)).Decode(&want); err != nil && !errors.Is(err, io.EOF) {
		t.Fatalf("input %q: fast path accepted what yaml.v3 rejects: %v", data, err)
	}
	if len(doc.Content) > 0 {
		if len(want.Content) == 0 {
			t.Fatalf("input %q: fast path found a node, yaml.v3 none", data)
		}
		if diff := nodeDiff(doc.Content[0], want.Content[0]); diff != "" {
			t.Fatalf("input %q: node tree differs from yaml.v3: %s", data, diff)
		}
	}
	return true
}

func errString(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}

// nodeDiff compares what FromYAMLNode reads. Plain scalars other than `<<`
// carry no Tag on the fast path (see parseFastYAML).
func nodeDiff(got, want *yaml.Node) string {
	where := fmt.Sprintf("node %q at %d:%d", want.Value, want.Line, want.Column)
	switch {
	case got.Kind != want.Kind:
		return fmt.Sprintf("%s: kind %v, want %v", where, got.Kind, want.Kind)
	case got.Style != want.Style:
		return fmt.Sprintf("%s: style %v, want %v", where, got.Style, want.Style)
	case got.Value != want.Value:
		return fmt.Sprintf("%s: value %q", where, got.Value)
	case got.Line != want.Line || got.Column != want.Column:
		return fmt.Sprintf("%s: position %d:%d", where, got.Line, got.Column)
	case got.Tag != want.Tag && (got.Tag != "" || want.Tag == "!!merge" || want.Kind != yaml.ScalarNode || want.Style != 0):
		return fmt.Sprintf("%s: tag %q, want %q", where, got.Tag, want.Tag)
	case got.Alias != nil || want.Alias != nil:
		return where + ": alias"
	case len(got.Content) != len(want.Content):
		return fmt.Sprintf("%s: %d children, want %d", where, len(got.Content), len(want.Content))
	}
	for i := range got.Content {
		if d := nodeDiff(got.Content[i], want.Content[i]); d != "" {
			return d
		}
	}
	return ""
}

// canonValue formats a value unambiguously: types, key order, float bits.
func canonValue(v value.Value) string {
	var b strings.Builder
	writeCanon(&b, v)
	return b.String()
}

func writeCanon(b *strings.Builder, v value.Value) {
	switch v := v.(type) {
	case value.String:
		b.WriteString(strconv.Quote(string(v)))
	case value.Integer:
		fmt.Fprintf(b, "int(%d)", int64(v))
	case value.Float:
		fmt.Fprintf(b, "float(%#x)", math.Float64bits(float64(v)))
	case value.Boolean:
		fmt.Fprintf(b, "bool(%t)", bool(v))
	case value.Array:
		b.WriteByte('[')
		for i, e := range v {
			if i > 0 {
				b.WriteString(", ")
			}
			writeCanon(b, e)
		}
		b.WriteByte(']')
	case *value.Hash:
		b.WriteByte('{')
		for i := range v.Len() {
			if i > 0 {
				b.WriteString(", ")
			}
			k, e := v.At(i)
			writeCanon(b, k)
			b.WriteString(" => ")
			writeCanon(b, e)
		}
		b.WriteByte('}')
	default:
		if value.IsUndef(v) {
			b.WriteString("undef")
		} else {
			fmt.Fprintf(b, "%T(%#v)", v, v)
		}
	}
}

func TestFastYAMLCases(t *testing.T) {
	for _, tc := range fastYAMLCases {
		t.Run(tc.name, func(t *testing.T) {
			if got := checkFastYAML(t, []byte(tc.yaml)); got != tc.fast {
				t.Errorf("fast path accepted=%v, want %v", got, tc.fast)
			}
			// FromYAML itself agrees with yaml.v3 either way.
			v, err := FromYAML([]byte(tc.yaml), "t.yaml")
			sv, serr := fromYAMLSlow([]byte(tc.yaml), "t.yaml")
			if errString(err) != errString(serr) || err == nil && canonValue(v) != canonValue(sv) {
				t.Errorf("FromYAML = %s, %v; yaml.v3 path = %s, %v", canonValue(v), err, canonValue(sv), serr)
			}
		})
	}
}

// fastYAMLCorpusRoots are searched for YAML files for the differential test;
// missing roots are skipped.
var fastYAMLCorpusRoots = []string{"../testdata", "testdata", "../hiera/testdata", "/usr/share/puppet/modules"}

// TestFastYAMLCorpus compares both paths on every YAML file in the corpus.
func TestFastYAMLCorpus(t *testing.T) {
	var files []string
	for _, root := range fastYAMLCorpusRoots {
		if _, err := os.Stat(root); err != nil {
			continue
		}
		files = append(files, yamlFilesUnder(t, root)...)
	}
	if len(files) == 0 {
		t.Skip("no YAML corpus found")
	}
	fast := 0
	var declined []string
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(f, func(t *testing.T) {
			if checkFastYAML(t, data) {
				fast++
			} else {
				declined = append(declined, f)
			}
		})
	}
	t.Logf("fast path took %d of %d YAML files (%.1f%%)", fast, len(files), 100*float64(fast)/float64(len(files)))
	for _, f := range declined {
		t.Logf("declined: %s", f)
	}
}

// yamlFilesUnder lists .yaml and .yml files below root, following symbolic
// links to directories (Debian's module directory is made of them) once each.
func yamlFilesUnder(t *testing.T, root string) []string {
	var files []string
	seen := map[string]bool{}
	var walk func(dir string)
	walk = func(dir string) {
		real, err := filepath.EvalSymlinks(dir)
		if err != nil || seen[real] {
			return
		}
		seen[real] = true
		entries, err := os.ReadDir(dir)
		if err != nil {
			return
		}
		for _, e := range entries {
			path := filepath.Join(dir, e.Name())
			info, err := os.Stat(path) // follows links
			if err != nil {
				continue
			}
			switch {
			case info.IsDir():
				walk(path)
			case info.Mode().IsRegular() && (strings.HasSuffix(path, ".yaml") || strings.HasSuffix(path, ".yml")):
				files = append(files, path)
			}
		}
	}
	walk(root)
	return files
}

// FuzzFastYAML checks that whatever the fast path accepts converts exactly as
// through yaml.v3, and that it never panics or hangs.
func FuzzFastYAML(f *testing.F) {
	for _, tc := range fastYAMLCases {
		f.Add(tc.yaml)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkAlloc(t, len(s), func() { checkFastYAML(t, []byte(s)) })
	})
}

// fastYAMLLinePieces are the scalars TestFastYAMLRandom builds lines from:
// plain, quoted and flow values chosen to sit on the subset's edges.
var fastYAMLLinePieces = []string{
	"a", "b c", "yes", "~", "1:30", "017", "2020-01-02", ":sym", "<<", "-x", "?x",
	"a:b", "a #c", "a#b", "'s'", "'it''s'", `"d\n"`, `"\x41"`, "ü", "[a, 'b']",
	"[]", "{}", "{k: v}", "[a: b]", "&x a", "*x", "!!str a", "|", "x: y", "- z",
	"'m", "n'", "o '' p",
}

// TestFastYAMLRandom compares both paths on documents assembled from random
// block lines (indentation, dashes, keys, comments, markers), which reach
// structural cases that byte-level fuzzing finds slowly.
func TestFastYAMLRandom(t *testing.T) {
	n := 20000
	if testing.Short() {
		n = 2000
	}
	rng := rand.New(rand.NewPCG(1, 2))
	pick := func() string { return fastYAMLLinePieces[rng.IntN(len(fastYAMLLinePieces))] }
	fast := 0
	var b strings.Builder
	for range n {
		b.Reset()
		for range 1 + rng.IntN(8) {
			b.WriteString(strings.Repeat(" ", rng.IntN(5)))
			switch rng.IntN(12) {
			case 0:
				b.WriteString("- " + pick())
			case 1:
				b.WriteString("-")
			case 2:
				b.WriteString("- " + pick() + ": " + pick())
			case 3:
				b.WriteString(pick() + ":")
			case 4:
				b.WriteString("# comment")
			case 5:
				// blank line
			case 6:
				b.WriteString(pick())
			case 7:
				b.WriteString([]string{"---", "...", "--- {}", "- - " + pick(), "-  " + pick() + ":"}[rng.IntN(5)])
			default:
				b.WriteString(pick() + ": " + pick())
			}
			if rng.IntN(6) == 0 {
				b.WriteString(" # c")
			}
			b.WriteByte('\n')
		}
		if checkFastYAML(t, []byte(b.String())) {
			fast++
		}
	}
	t.Logf("fast path took %d of %d random documents", fast, n)
}

// benchCommonYAML is the benchmark workload's hiera common.yaml, made by
// `python3 $MARIONETTE_BENCH/gen.py --out /tmp/yw` (shared/bench beside the repository); HIERA_BENCH_YAML overrides.
func benchCommonYAML(b *testing.B) []byte {
	path := os.Getenv("HIERA_BENCH_YAML")
	if path == "" {
		path = "/tmp/yw/environments/medium/data/common.yaml"
	}
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		b.Skipf("%s not found", path)
	}
	if err != nil {
		b.Fatal(err)
	}
	return data
}

func BenchmarkFromYAMLCommon(b *testing.B) {
	data := benchCommonYAML(b)
	if _, ok := parseFastYAML(data); !ok {
		b.Log("fast path declines the file")
	}
	b.Run("fast", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := FromYAML(data, "common.yaml"); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("yaml.v3", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := fromYAMLSlow(data, "common.yaml"); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("parse-only/fast", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			parseFastYAML(data)
		}
	})
	b.Run("parse-only/yaml.v3", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			var doc yaml.Node
			if err := yaml.NewDecoder(bytes.NewReader(data)).Decode(&doc); err != nil {
				b.Fatal(err)
			}
		}
	})
}
