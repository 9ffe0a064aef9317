package syntax

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/marionette-dev/marionette/diag"
)

var update = flag.Bool("update", false, "rewrite the expected outputs of the golden tests")

// archive is a txtar-style file: a comment, then files introduced by
// "-- name --" lines.
type archive struct {
	comment string
	files   []archiveFile
}

type archiveFile struct {
	name string
	data string
}

func parseArchive(data string) archive {
	var a archive
	cur := -1
	for len(data) > 0 {
		line := data
		if i := strings.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i+1], data[i+1:]
		} else {
			data = ""
		}
		trimmed := strings.TrimRight(line, "\n")
		if strings.HasPrefix(trimmed, "-- ") && strings.HasSuffix(trimmed, " --") && len(trimmed) > 6 {
			a.files = append(a.files, archiveFile{name: strings.TrimSpace(trimmed[3 : len(trimmed)-3])})
			cur = len(a.files) - 1
			continue
		}
		if cur < 0 {
			a.comment += line
		} else {
			a.files[cur].data += line
		}
	}
	return a
}

func (a archive) format() []byte {
	var b bytes.Buffer
	b.WriteString(a.comment)
	for _, f := range a.files {
		b.WriteString("-- " + f.name + " --\n")
		b.WriteString(f.data)
		if f.data != "" && !strings.HasSuffix(f.data, "\n") {
			b.WriteByte('\n')
		}
	}
	return b.Bytes()
}

// runGolden runs each input file (.pp or .epp) of each archive in dir
// through produce and compares the result with the file of the same name
// and extension ext, or rewrites it with -update.
func runGolden(t *testing.T, dir, ext string, produce func(name, src string) string) int {
	paths, _ := filepath.Glob(filepath.Join(dir, "*.txtar"))
	if len(paths) == 0 {
		t.Fatalf("no test archives in %s", dir)
	}
	count := 0
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		a := parseArchive(string(data))
		var out []archiveFile
		for i := 0; i < len(a.files); i++ {
			in := a.files[i]
			if !strings.HasSuffix(in.name, ".pp") && !strings.HasSuffix(in.name, ".epp") {
				continue
			}
			count++
			want := ""
			wantName := strings.TrimSuffix(strings.TrimSuffix(in.name, ".pp"), ".epp") + ext
			if i+1 < len(a.files) && a.files[i+1].name == wantName {
				want = a.files[i+1].data
			}
			got := produce(in.name, in.data)
			out = append(out, in, archiveFile{name: wantName, data: got})
			if !*update && got != want {
				t.Errorf("%s: %s:\ninput:\n%s\ngot:\n%s\nwant:\n%s", path, in.name, in.data, got, want)
			}
		}
		if *update {
			a.files = out
			if err := os.WriteFile(path, a.format(), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	return count
}

func parseForTest(name, src string) (Node, error) {
	if strings.HasSuffix(name, ".epp") {
		return ParseEPP(name, []byte(src))
	}
	return ParseFile(name, []byte(src))
}

// TestParseGolden checks the syntax tree of valid inputs.
func TestParseGolden(t *testing.T) {
	n := runGolden(t, "testdata/parse", ".dump", func(name, src string) string {
		tree, err := parseForTest(name, src)
		if err != nil {
			return "error: " + err.Error() + "\n"
		}
		var b strings.Builder
		Dump(&b, tree)
		checkPositions(t, name, src, tree)
		return b.String()
	})
	t.Logf("%d golden parse cases", n)
}

// TestErrorGolden checks the errors reported for invalid inputs.
func TestErrorGolden(t *testing.T) {
	n := runGolden(t, "testdata/errors", ".err", func(name, src string) string {
		_, err := parseForTest(name, src)
		if err == nil {
			return "no error\n"
		}
		var b strings.Builder
		for _, e := range err.(diag.List) {
			b.WriteString(e.Range.Start.String() + ": " + e.Message + "\n")
		}
		return b.String()
	})
	t.Logf("%d golden error cases", n)
}

// checkPositions asserts that every node has a span that lies within the
// source. (A heredoc's text lies outside the heredoc's own span, so a child
// need not lie within its parent.)
func checkPositions(t testing.TB, name, src string, tree Node) {
	limit := Pos(len(src) + 1)
	Inspect(tree, func(n Node) bool {
		if n != nil && (n.Pos() < 1 || n.End() < n.Pos() || n.End() > limit) {
			t.Errorf("%s: %T has bad span [%d,%d) in a source of %d bytes", name, n, n.Pos(), n.End(), len(src))
		}
		return true
	})
}

// TestParseFileOwned: parsing a buffer in place gives the tree and the
// errors a copying parse gives, for every golden input, valid or not.
func TestParseFileOwned(t *testing.T) {
	var inputs []archiveFile
	for _, dir := range []string{"testdata/parse", "testdata/errors"} {
		paths, _ := filepath.Glob(filepath.Join(dir, "*.txtar"))
		for _, path := range paths {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range parseArchive(string(data)).files {
				if strings.HasSuffix(f.name, ".pp") {
					inputs = append(inputs, f)
				}
			}
		}
	}
	if len(inputs) < 10 {
		t.Fatalf("only %d golden inputs", len(inputs))
	}
	inputs = append(inputs, archiveFile{name: "empty.pp"}, archiveFile{name: "bad.pp", data: "\xff"})
	dump := func(prog *Program, err error) string {
		var b strings.Builder
		Dump(&b, prog)
		if err != nil {
			b.WriteString("error: " + err.Error())
		}
		return b.String()
	}
	for _, in := range inputs {
		want := dump(ParseFile(in.name, []byte(in.data)))
		if got := dump(ParseFileOwned(in.name, []byte(in.data))); got != want {
			t.Errorf("%s: in place:\n%s\ncopied:\n%s", in.name, got, want)
		}
	}
}
