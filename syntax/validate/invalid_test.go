package validate

import (
	"bufio"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/marionette-dev/marionette/diag"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata/invalid")

// invalidDir holds small manifests that real Puppet 7.23 rejects, each
// NAME.pp with NAME.golden, our diagnostics, and Puppet's messages in
// puppet-messages.txt (scripts/puppet-validate --snippets).
const invalidDir = "../../testdata/invalid"

// acceptedByDesign are the snippets Puppet 7 rejects that marionette
// accepts with a warning, because older Puppet accepted them (see
// shared/seeds/README.md).
var acceptedByDesign = map[string]bool{
	"node_inherits":         true,
	"node_default_inherits": true,
}

// diagnostics returns what we report for a manifest: errors as
// "file:line:column: message" and warnings as "file:line:column: warning:
// message", one a line.
func diagnostics(name string, src []byte) (out string, errors, warnings int) {
	_, warns, err := ParseFile(name, src)
	var b strings.Builder
	if err != nil {
		list, ok := err.(diag.List)
		if !ok {
			list = diag.List{{Message: err.Error()}}
		}
		for _, e := range list {
			b.WriteString(positioned(e) + "\n")
		}
		errors = len(list)
	}
	for _, w := range warns {
		b.WriteString(w.Range.Start.String() + ": warning: " + w.Message + "\n")
	}
	return b.String(), errors, len(warns)
}

// TestInvalid checks that we reject every snippet Puppet rejects (those
// accepted by design must warn instead), and compares our messages with
// the goldens; -update rewrites them.
func TestInvalid(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join(invalidDir, "*.pp"))
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) == 0 {
		t.Fatalf("no snippets in %s", invalidDir)
	}
	puppet := puppetMessages(t)
	samePos := 0
	for _, path := range paths {
		base := filepath.Base(path)
		name := strings.TrimSuffix(base, ".pp")
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		got, nerr, nwarn := diagnostics(base, src)
		switch {
		case acceptedByDesign[name]:
			if nerr > 0 || nwarn == 0 {
				t.Errorf("%s: want a warning and no error, got:\n%s", base, got)
			}
		case nerr == 0:
			t.Errorf("%s: Puppet rejects it (%s), we accept it", base, puppet[name])
		}
		if pos := firstPosition(got, base); pos != "" && strings.HasPrefix(puppet[name], pos+":") {
			samePos++
		} else if testing.Verbose() {
			t.Logf("%s: position differs from Puppet's\n  we:     %s  puppet: %s", base, got, puppet[name])
		}

		golden := filepath.Join(invalidDir, name+".golden")
		if *update {
			if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Errorf("%s: %v (run go test -update to create it)", base, err)
			continue
		}
		if got != string(want) {
			t.Errorf("%s: diagnostics differ from %s\ngot:\n%swant:\n%s", base, golden, got, want)
		}
	}
	t.Logf("%d snippets; the first error is where Puppet puts it for %d", len(paths), samePos)

	// Every golden belongs to a snippet, every snippet has Puppet's message.
	goldens, _ := filepath.Glob(filepath.Join(invalidDir, "*.golden"))
	for _, g := range goldens {
		if _, err := os.Stat(strings.TrimSuffix(g, ".golden") + ".pp"); err != nil {
			t.Errorf("%s has no snippet", g)
		}
	}
	for _, path := range paths {
		name := strings.TrimSuffix(filepath.Base(path), ".pp")
		if _, ok := puppet[name]; !ok {
			t.Errorf("%s: no message in puppet-messages.txt (run scripts/puppet-validate --snippets testdata/invalid)", path)
		}
	}
}

// puppetMessages reads puppet-messages.txt: NAME PHASE MESSAGES.
func puppetMessages(t *testing.T) map[string]string {
	f, err := os.Open(filepath.Join(invalidDir, "puppet-messages.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m := make(map[string]string)
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		name, rest, _ := strings.Cut(sc.Text(), " ")
		_, msg, _ := strings.Cut(rest, " ")
		m[name] = msg
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return m
}

// firstPosition returns "line:column" of the first diagnostic in out.
func firstPosition(out, file string) string {
	line, _, _ := strings.Cut(out, "\n")
	rest, ok := strings.CutPrefix(line, file+":")
	if !ok {
		return ""
	}
	l, rest, _ := strings.Cut(rest, ":")
	c, _, _ := strings.Cut(rest, ":")
	return l + ":" + c
}

// differFromPuppet are the snippets Puppet rejects in validation whose
// errors we give differently, and why.
var differFromPuppet = map[string]string{
	"heredoc_epp_invalid":      "the parser's message tells what it expected",
	"heredoc_json_invalid":     "the JSON parser's own message",
	"node_inherits":            "accepted by design, with a warning",
	"node_default_inherits":    "accepted by design, with a warning",
	"numeric_overflow":         "the parser rejects the literal",
	"type_mapping_not_runtime": "the parser rejects type mappings",
}

// TestInvalidMatchesPuppet checks that for every snippet Puppet rejects
// after parsing, in its validator, we report the same errors at the same
// places, differFromPuppet excepted.
func TestInvalidMatchesPuppet(t *testing.T) {
	f, err := os.Open(filepath.Join(invalidDir, "puppet-messages.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	issueCode := regexp.MustCompile(` \[[A-Z0-9_]+\]$`)
	checked := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.SplitN(sc.Text(), " ", 3)
		if len(fields) != 3 || fields[1] != "validate" || differFromPuppet[fields[0]] != "" {
			continue
		}
		name := fields[0]
		var want []string
		for _, msg := range strings.Split(fields[2], " | ") {
			want = append(want, issueCode.ReplaceAllString(msg, ""))
		}
		src, err := os.ReadFile(filepath.Join(invalidDir, name+".pp"))
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		if _, _, err := ParseFile("", src); err != nil {
			if list, ok := err.(diag.List); ok {
				got = messages(list)
			} else {
				got = []string{err.Error()}
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s.pp:\ngot  %q\nwant %q (Puppet)", name, got, want)
		}
		checked++
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d snippets rejected by Puppet's validator give the same errors here", checked)
}
