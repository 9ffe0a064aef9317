package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

const (
	exampleEnvs  = "../../examples"
	exampleFacts = "../../examples/facts/web01.example.com.yaml"
	exampleSite  = "../../examples/production/manifests/site.pp"
)

// ttyBuffer stands in for a terminal.
type ttyBuffer struct{ bytes.Buffer }

func (*ttyBuffer) IsTerminal() bool { return true }

// TestLikelyMistakesAreErrors: a command line that would silently compile
// something other than what the user meant fails instead, and errors that
// are not about compiling the node do not end in Puppet's " on node N".
func TestLikelyMistakesAreErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"compile without facts", []string{"compile", "web01.example.com", "--environmentpath", exampleEnvs},
			1, "Error: No facts available for target node: web01.example.com (give --facts FILE, or --facts none to use no facts; none in the server's facts cache $vardir/yaml/facts)\n"},
		{"lookup without facts", []string{"lookup", "x", "--node", "web01.example.com", "--environmentpath", exampleEnvs},
			1, "Error: Could not run: No facts available for target node: web01.example.com"},
		{"bench without facts", []string{"bench", "web01.example.com", "--environmentpath", exampleEnvs, "--runs", "1"},
			1, "No facts available for target node"},
		{"missing hiera config", []string{"compile", "web01.example.com", "--environmentpath", exampleEnvs, "--facts", exampleFacts, "--hiera-config", "/nonexistent/hiera.yaml"},
			1, "Error: --hiera-config /nonexistent/hiera.yaml: no such file or directory\n"},
		{"missing manifest", []string{"compile", "web01.example.com", "--manifest", "/nonexistent/site.pp", "--facts", "none"},
			1, "Error: --manifest /nonexistent/site.pp: no such file or directory\n"},
		{"no environment at all", []string{"compile", "web01.example.com", "--facts", "none"},
			1, "Error: No environment to compile"},
		{"missing facts file", []string{"compile", "web01.example.com", "--environmentpath", exampleEnvs, "--facts", "/nonexistent/facts.yaml"},
			1, "no such file or directory\n"},
		{"bad puppet.conf", []string{"compile", "web01.example.com", "--config", "/nonexistent/puppet.conf", "--facts", "none"},
			1, "no such file or directory\n"},
		{"fleet without an environment", []string{"compile", "--all-nodes", "--facts-dir", "../../examples/facts", "--out", "/nonexistent/out"},
			2, "Error: No environment to compile"},
		{"fleet with a missing manifest", []string{"compile", "--all-nodes", "--manifest", "/nonexistent/site.pp", "--facts-dir", "../../examples/facts", "--out", "/nonexistent/out"},
			2, "Error: --manifest /nonexistent/site.pp: no such file or directory\n"},
		{"fleet flag without --all-nodes", []string{"compile", "web01.example.com", "--environmentpath", exampleEnvs, "--facts", exampleFacts, "--facts-dir", "../../examples/facts"},
			2, "Error: --facts-dir needs --all-nodes\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(tc.args, &stdout, &stderr)
			if code != tc.code || !strings.Contains(stderr.String(), tc.want) {
				t.Errorf("exit %d, stderr %q; want exit %d and %q", code, stderr.String(), tc.code, tc.want)
			}
			if strings.Contains(stderr.String(), " on node ") {
				t.Errorf("not an error on the node: %q", stderr.String())
			}
			if stdout.Len() != 0 {
				t.Errorf("printed %.80q", stdout.String())
			}
		})
	}
	// --facts none is the explicit opt-out.
	var stdout, stderr bytes.Buffer
	if code := run([]string{"compile", "web01.example.com", "--environmentpath", exampleEnvs, "--facts", "none"}, &stdout, &stderr); code != 0 || !strings.HasPrefix(stdout.String(), `{"tags"`) {
		t.Errorf("--facts none: exit %d, stderr %q", code, stderr.String())
	}
}

// TestHelpAndVersion: help goes to stdout with exit 0, for every command,
// and names the flags a user can give.
func TestHelpAndVersion(t *testing.T) {
	version := "marionette " + version + " (follows Puppet 7.23.0)\n"
	for _, tc := range []struct {
		name  string
		args  []string
		code  int
		wants []string
	}{
		{"compile --help", []string{"compile", "--help"}, 0, []string{"usage: marionette compile NODE", "-all-nodes", "-facts-dir", "-nodes-from", "-out", "-jobs", "-timeout", "-render-as", "-output"}},
		{"compile -h after flags", []string{"compile", "n1", "--facts", "x", "-h"}, 0, []string{"usage: marionette compile NODE"}},
		{"help compile", []string{"help", "compile"}, 0, []string{"usage: marionette compile NODE", "-all-nodes"}},
		{"lookup --help", []string{"lookup", "--help"}, 0, []string{"usage: marionette lookup", "-explain", "-render-as"}},
		{"node --help", []string{"node", "--help"}, 0, []string{"usage: marionette node", "-render-as"}},
		{"parse --help", []string{"parse", "--help"}, 0, []string{"usage: marionette parse", "-validate"}},
		{"bench --help", []string{"bench", "--help"}, 0, []string{"usage: marionette bench", "-timeout"}},
		{"diff --help", []string{"diff", "--help"}, 0, []string{"usage: marionette diff"}},
		{"version --help", []string{"version", "--help"}, 0, []string{"usage: marionette version"}},
		{"--help", []string{"--help"}, 0, []string{"usage: marionette <command>", "limits"}},
		{"help", []string{"help"}, 0, []string{"usage: marionette <command>", "completion"}},
		{"help limits", []string{"help", "limits"}, 0, []string{"compile deadline", "2m0s", "--timeout", "30s", "--enc-timeout", "16 MiB", "--enc-max-output", "1 MiB", "4194304 values", "--max-yaml-nodes", "--max-template-size", "1000000 resources", "--max-resources", "(fixed)"}},
		{"help facts", []string{"help", "facts"}, 0, []string{"--facts none"}},
		{"--version", []string{"--version"}, 0, []string{version}},
		{"version", []string{"version"}, 0, []string{version}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(tc.args, &stdout, &stderr)
			if code != tc.code || stderr.Len() != 0 {
				t.Errorf("exit %d, stderr %q; want exit %d and no stderr", code, stderr.String(), tc.code)
			}
			for _, w := range tc.wants {
				if !strings.Contains(stdout.String(), w) {
					t.Errorf("stdout lacks %q:\n%s", w, stdout.String())
				}
			}
		})
	}
	var a, b, stderr bytes.Buffer
	run([]string{"help", "compile"}, &a, &stderr)
	run([]string{"compile", "--help"}, &b, &stderr)
	if a.String() != b.String() {
		t.Errorf("help compile and compile --help differ")
	}
	for _, args := range [][]string{{"help", "nosuch"}, {"help", "a", "b"}, {"completion", "fish"}} {
		var stdout, stderr bytes.Buffer
		if code := run(args, &stdout, &stderr); code != 2 || stderr.Len() == 0 {
			t.Errorf("%v: exit %d, stderr %q", args, code, stderr.String())
		}
	}
}

// TestLookupExplainMissingKey: puppet lookup --explain of a key nothing
// has explains that on stdout and exits 0 (checked with Puppet 7.23).
func TestLookupExplainMissingKey(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := run([]string{"lookup", "--explain", "no::such::key", "--node", "web01.example.com", "--environmentpath", exampleEnvs, "--facts", exampleFacts}, &stdout, &stderr)
	if code != 0 || stderr.Len() != 0 {
		t.Errorf("exit %d, stderr %q", code, stderr.String())
	}
	out := stdout.String()
	// Keys and flags in any order; a lone "-" is a key, not a hang.
	var o2, e2 bytes.Buffer
	if code := run([]string{"lookup", "--node", "web01.example.com", "-", "--environmentpath", exampleEnvs, "--facts", exampleFacts, "--explain"}, &o2, &e2); code != 0 ||
		!strings.HasSuffix(o2.String(), "did not find a value for the name '-'\n") {
		t.Errorf("lookup -: exit %d, stdout %q, stderr %q", code, o2.String(), e2.String())
	}
	if !strings.Contains(out, `Searching for "no::such::key"`) || !strings.HasSuffix(out, "Function lookup() did not find a value for the name 'no::such::key'\n") {
		t.Errorf("stdout:\n%s", out)
	}
}

// TestOutputFormats: --render-as and -o/--output of compile, node and
// lookup. The default compile output stays byte for byte one JSON line.
func TestOutputFormats(t *testing.T) {
	compileArgs := []string{"compile", "web01.example.com", "--environmentpath", exampleEnvs, "--facts", exampleFacts}
	compile := func(t *testing.T, stdout interface {
		Write([]byte) (int, error)
		String() string
	}, extra ...string) string {
		t.Helper()
		var stderr bytes.Buffer
		if code := run(append(append([]string{}, compileArgs...), extra...), stdout, &stderr); code != 0 {
			t.Fatalf("%v: exit %d: %s", extra, code, stderr.String())
		}
		return stdout.String()
	}
	// The catalog's version is the compile's time: compare without it.
	noVersion := func(s string) string {
		var m map[string]any
		if err := json.Unmarshal([]byte(s), &m); err != nil {
			if err := yaml.Unmarshal([]byte(s), &m); err != nil {
				t.Fatalf("neither JSON nor YAML: %v\n%.200s", err, s)
			}
		}
		delete(m, "version")
		delete(m, "catalog_uuid")
		out, _ := json.Marshal(m)
		return string(out)
	}
	plain := compile(t, &bytes.Buffer{})
	if strings.Count(plain, "\n") != 1 || !strings.HasPrefix(plain, `{"tags":["settings","web01.example.com",`) {
		t.Fatalf("default output is not one JSON line: %.200q", plain)
	}
	for _, tc := range []struct {
		name   string
		stdout interface {
			Write([]byte) (int, error)
			String() string
		}
		args   []string
		prefix string
		lines  bool
	}{
		{"json", &bytes.Buffer{}, []string{"--render-as", "json"}, `{"tags":`, false},
		{"pson", &bytes.Buffer{}, []string{"--render-as", "pson"}, `{"tags":`, false},
		{"terminal", &ttyBuffer{}, nil, "{\n  \"tags\": [\n    \"settings\",\n", true},
		{"yaml", &bytes.Buffer{}, []string{"--render-as", "yaml"}, "---\ntags:\n- settings\n- web01.example.com\n", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := compile(t, tc.stdout, tc.args...)
			if !strings.HasPrefix(got, tc.prefix) || (strings.Count(got, "\n") > 1) != tc.lines {
				t.Errorf("output starts %.120q", got)
			}
			if noVersion(got) != noVersion(plain) {
				t.Errorf("a different catalog")
			}
		})
	}
	t.Run("output file", func(t *testing.T) {
		for _, flag := range []string{"-o", "--output"} {
			path := filepath.Join(t.TempDir(), "cat.json")
			var stdout ttyBuffer // a file is never indented
			if got := compile(t, &stdout, flag, path); got != "" {
				t.Errorf("%s printed to stdout: %.80q", flag, got)
			}
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Count(string(data), "\n") != 1 || noVersion(string(data)) != noVersion(plain) {
				t.Errorf("%s wrote %.120q", flag, data)
			}
			if left, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".*")); len(left) != 0 {
				t.Errorf("temporary files left: %v", left)
			}
		}
	})
	t.Run("node and lookup", func(t *testing.T) {
		for _, tc := range []struct {
			args []string
			want string
		}{
			{[]string{"node", "web01.example.com", "--environmentpath", exampleEnvs, "--render-as", "json"}, `{"name":"web01.example.com","environment":"production"`},
			{[]string{"node", "web01.example.com", "--environmentpath", exampleEnvs}, "---\nname: web01.example.com\nenvironment: production\n"},
			{[]string{"lookup", "ntp::servers", "--node", "web01.example.com", "--environmentpath", exampleEnvs, "--facts", exampleFacts, "--render-as", "pson"}, "[\"time1.example.com\",\"time2.example.com\"]\n"},
		} {
			var stdout, stderr bytes.Buffer
			if code := run(tc.args, &stdout, &stderr); code != 0 || !strings.HasPrefix(stdout.String(), tc.want) {
				t.Errorf("%v: exit %d, stdout %q, stderr %q; want %q", tc.args, code, stdout.String(), stderr.String(), tc.want)
			}
		}
	})
	for _, args := range [][]string{
		append(append([]string{}, compileArgs...), "--render-as", "xml"),
		{"node", "n1", "--render-as", "s"},
		{"lookup", "k", "--node", "n1", "--render-as", "msgpack"},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(args, &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), "--render-as: unknown format") {
			t.Errorf("%v: exit %d, stderr %q", args, code, stderr.String())
		}
	}
}

// TestParseErrorsAsPuppet: parse --validate words errors as puppet parser
// validate 7.23 does (its output for the same files): every validation
// error of a file, then the summary; a lone error or a syntax error as the
// environment's parse failure. The lines marionette adds under each error
// (the source line and its caret, see TestParseCaret) are left out here.
func TestParseErrorsAsPuppet(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"bad.pp": "class A {}\n$1 = 2\nnotify{'x':}\n1 = 3\n",
		"one.pp": "class A {}\n",
		"syn.pp": "class ok {\n",
		"ok.pp":  "notify{'x':}\n",
	})
	f := func(name string) string { return filepath.Join(dir, name) }
	for _, tc := range []struct {
		files []string
		code  int
		want  string
	}{
		{[]string{"bad.pp"}, 1, "Error: Unacceptable name. The name 'A' is unacceptable as the name of a Host Class Definition (file: " + f("bad.pp") + ", line: 1, column: 1)\n" +
			"Error: Illegal attempt to assign to the numeric match result variable '$1'. Numeric variables are not assignable (file: " + f("bad.pp") + ", line: 2, column: 1)\n" +
			"Error: Illegal attempt to assign to 'a Literal Integer'. Not an assignable reference (file: " + f("bad.pp") + ", line: 4, column: 1)\n" +
			"Error: Language validation logged 3 errors. Giving up\n"},
		{[]string{"one.pp", "ok.pp"}, 1, "Error: Could not parse for environment production: Unacceptable name. The name 'A' is unacceptable as the name of a Host Class Definition (file: " + f("one.pp") + ", line: 1, column: 1)\n"},
		{[]string{"syn.pp"}, 1, "Error: Could not parse for environment production: Syntax error at end of input"},
		{[]string{"ok.pp"}, 0, ""},
		{[]string{"nonexistent.pp"}, 1, "Error: Could not read " + f("nonexistent.pp") + ": no such file or directory\n"},
	} {
		args := []string{"parse", "--validate"}
		for _, name := range tc.files {
			args = append(args, f(name))
		}
		var stdout, stderr bytes.Buffer
		code := run(args, &stdout, &stderr)
		got := puppetLines(stderr.String())
		if code != tc.code || !strings.HasPrefix(got, tc.want) || tc.want == "" && stderr.Len() != 0 {
			t.Errorf("%v: exit %d, stderr:\n%s\nwant exit %d and:\n%s", tc.files, code, stderr.String(), tc.code, tc.want)
		}
	}
}

// puppetLines returns the lines of out that Puppet would print too: all but
// the annotations under an error, which start with a blank.
func puppetLines(out string) string {
	var b strings.Builder
	for line := range strings.SplitAfterSeq(out, "\n") {
		if !strings.HasPrefix(line, " ") {
			b.WriteString(line)
		}
	}
	return b.String()
}

// TestParseCaret: each error of parse --validate is followed by its source
// line and a caret under its column, underlined to the end of its range;
// --verbose adds the problem's code.
func TestParseCaret(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"syn.pp": "class ok {\n  notice(1 +)\n}\n",
		"val.pp": "\t$x = 1\n\t$1 = 2\n",
		"key.pp": "$h = {'a' => 1, 'a' => 2}\n",
	})
	f := func(name string) string { return filepath.Join(dir, name) }
	for _, tc := range []struct {
		file    string
		verbose bool
		want    string
	}{
		{"syn.pp", false, "Error: Could not parse for environment production: Syntax error at ')' (file: " + f("syn.pp") + ", line: 2, column: 13)\n" +
			" 2 |   notice(1 +)\n" +
			"   |             ^\n"},
		{"syn.pp", true, "Error: Could not parse for environment production: Syntax error at ')' (file: " + f("syn.pp") + ", line: 2, column: 13)\n" +
			" 2 |   notice(1 +)\n" +
			"   |             ^\n" +
			"   = SYNTAX_ERROR\n"},
		{"val.pp", true, "Error: Could not parse for environment production: Illegal attempt to assign to the numeric match result variable '$1'. Numeric variables are not assignable (file: " + f("val.pp") + ", line: 2, column: 2)\n" +
			" 2 | \t$1 = 2\n" +
			"   | \t^~\n" +
			"   = ILLEGAL_NUMERIC_ASSIGNMENT\n"},
		{"key.pp", false, "Warning: The key 'a' is declared more than once (file: " + f("key.pp") + ", line: 1, column: 21)\n" +
			" 1 | $h = {'a' => 1, 'a' => 2}\n" +
			"   |                     ^~~~\n"},
	} {
		args := []string{"parse", "--validate"}
		if tc.verbose {
			args = append(args, "--verbose")
		}
		var stdout, stderr bytes.Buffer
		run(append(args, f(tc.file)), &stdout, &stderr)
		if got := stderr.String(); got != tc.want {
			t.Errorf("%s (verbose %v):\ngot\n%s\nwant\n%s", tc.file, tc.verbose, got, tc.want)
		}
	}
}

// TestCompileVerbose: compile --verbose shows, under Puppet's unchanged
// error line, the source line with a caret and the code with what the name
// may have meant; without it the error is Puppet's line alone.
func TestCompileVerbose(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"site.pp":                          "node default {\n  include apahce\n}\n",
		"modules/apache/manifests/init.pp": "class apache {}\n",
	})
	line := "Error: Evaluation Error: Error while evaluating a Function Call, Could not find class ::apahce for n1 (file: " +
		filepath.Join(dir, "site.pp") + ", line: 2, column: 3) on node n1\n"
	for _, tc := range []struct {
		verbose bool
		want    string
	}{
		{false, line},
		{true, line + " 2 |   include apahce\n" + "   |   ^~~~~~~~~~~~~~\n" + "   = UNKNOWN_CLASS: did you mean 'apache'?\n"},
	} {
		args := []string{"compile", "n1", "--manifest", filepath.Join(dir, "site.pp"), "--modulepath", filepath.Join(dir, "modules"), "--facts", "none"}
		if tc.verbose {
			args = append(args, "--verbose")
		}
		var stdout, stderr bytes.Buffer
		if code := run(args, &stdout, &stderr); code != 1 {
			t.Errorf("exit %d, want 1", code)
		}
		if got := stderr.String(); got != tc.want {
			t.Errorf("verbose %v:\ngot\n%s\nwant\n%s", tc.verbose, got, tc.want)
		}
	}
}

// TestColor: errors red and warnings yellow on a terminal, as Puppet's
// console; --color and NO_COLOR decide.
func TestColor(t *testing.T) {
	const text = "Error: bad\nWarning: careful\nNotice: fine\nError: unterminated"
	red, yellow := ansiRed+"Error: bad"+ansiReset+"\n", ansiYellow+"Warning: careful"+ansiReset+"\n"
	for _, tc := range []struct {
		name    string
		mode    colorMode
		tty     bool
		noColor string
		colored bool
	}{
		{"auto on a terminal", colorAuto, true, "", true},
		{"auto into a file", colorAuto, false, "", false},
		{"auto with NO_COLOR", colorAuto, true, "1", false},
		{"always into a file", colorAlways, false, "", true},
		{"always beats NO_COLOR", colorAlways, true, "1", true},
		{"never", colorNever, true, "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out interface {
				Write([]byte) (int, error)
				String() string
			} = &bytes.Buffer{}
			if tc.tty {
				out = &ttyBuffer{}
			}
			cw := newColorWriter(out, tc.mode, func(k string) string {
				if k == "NO_COLOR" {
					return tc.noColor
				}
				return ""
			})
			// Written in pieces, as fmt does.
			for _, piece := range []string{text[:3], text[3:15], text[15:]} {
				cw.Write([]byte(piece))
			}
			cw.Flush()
			got := out.String()
			if tc.colored {
				want := red + yellow + "Notice: fine\n" + ansiRed + "Error: unterminated" + ansiReset
				if got != want {
					t.Errorf("got %q, want %q", got, want)
				}
			} else if got != text {
				t.Errorf("got %q, want it uncoloured", got)
			}
		})
	}
	for _, tc := range []struct {
		args    []string
		code    int
		colored bool
	}{
		{[]string{"--color=always", "compile", "n1", "--facts", "none"}, 1, true},
		{[]string{"compile", "n1", "--color", "always", "--facts", "none"}, 1, true},
		{[]string{"compile", "n1", "--facts", "none", "--color=true"}, 1, true},
		{[]string{"compile", "n1", "--facts", "none", "--color=never"}, 1, false},
		{[]string{"compile", "n1", "--facts", "none"}, 1, false},
		{[]string{"compile", "n1", "--color=html"}, 2, false},
	} {
		var stdout, stderr bytes.Buffer
		code := run(tc.args, &stdout, &stderr)
		if code != tc.code || strings.HasPrefix(stderr.String(), ansiRed+"Error: ") != tc.colored {
			t.Errorf("%v: exit %d, stderr %q", tc.args, code, stderr.String())
		}
	}
}

// TestTimeout: --timeout bounds a whole compile and must be positive.
func TestTimeout(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"enc.sh":  "#!/bin/sh\nsleep 20\n",
		"site.pp": "notify { 'x': }\n",
	})
	if err := os.Chmod(filepath.Join(dir, "enc.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	site := filepath.Join(dir, "site.pp")
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"zero", []string{"compile", "n1", "--manifest", site, "--facts", "none", "--timeout", "0"}, 2, "Error: --timeout must be positive, got 0s\n"},
		{"negative", []string{"compile", "n1", "--manifest", site, "--facts", "none", "--timeout", "-1s"}, 2, "Error: --timeout must be positive, got -1s\n"},
		{"bench zero", []string{"bench", "n1", "--manifest", site, "--facts", "none", "--timeout", "0s"}, 2, "Error: --timeout must be positive, got 0s\n"},
		{"fleet zero", []string{"compile", "--all-nodes", "--manifest", site, "--facts-dir", dir, "--out", dir, "--timeout", "0s"}, 2, "Error: --timeout must be positive, got 0s\n"},
		{"reached", []string{"compile", "n1", "--manifest", site, "--facts", "none", "--timeout", "300ms", "--enc", filepath.Join(dir, "enc.sh")}, 1,
			"Error: The compile took longer than --timeout 300ms (a limit of marionette) and was stopped\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(tc.args, &stdout, &stderr)
			if code != tc.code || !strings.Contains(stderr.String(), tc.want) || stdout.Len() != 0 {
				t.Errorf("exit %d, stderr %q; want exit %d and %q", code, stderr.String(), tc.code, tc.want)
			}
		})
	}
}

// TestCompletion: the scripts offer every command and each command's
// flags, taken from its help, and are valid shell.
func TestCompletion(t *testing.T) {
	for _, shell := range []string{"bash", "zsh"} {
		var stdout, stderr bytes.Buffer
		if code := run([]string{"completion", shell}, &stdout, &stderr); code != 0 {
			t.Fatalf("%s: exit %d: %s", shell, code, stderr.String())
		}
		script := stdout.String()
		for _, want := range []string{"compile", "lookup", "--all-nodes", "--render-as", "--timeout", "--explain", "limits", "auto always never"} {
			if !strings.Contains(script, want) {
				t.Errorf("%s completion lacks %q", shell, want)
			}
		}
		if path, err := exec.LookPath(shell); err == nil {
			cmd := exec.Command(path, "-n")
			cmd.Stdin = strings.NewReader(script)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("%s -n: %v\n%s", shell, err, out)
			}
		}
	}
	words := completionWords()
	if got := words["compile"]; !contains(got, "--facts-dir") || !contains(got, "--manifest") || !contains(got, "--output") {
		t.Errorf("compile flags: %v", got)
	}
	if got := words["help"]; !contains(got, "limits") || !contains(got, "compile") {
		t.Errorf("help words: %v", got)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestREADMEDocumentsTheCLI: the README tells how to install, lists every
// help topic and shows completion.
func TestREADMEDocumentsTheCLI(t *testing.T) {
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(data)
	wants := []string{"go install github.com/marionette-dev/marionette/cmd/marionette@latest", "marionette completion bash", "marionette completion zsh"}
	for _, tp := range helpTopics() {
		wants = append(wants, "marionette help "+tp.name)
	}
	for _, w := range wants {
		if !strings.Contains(readme, w) {
			t.Errorf("README lacks %q", w)
		}
	}
}

// TestNoRubyInternalsInErrors: an ENC printing a plain string gets a plain
// message, not the Ruby NoMethodError Puppet shows.
func TestNoRubyInternalsInErrors(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"enc.sh":  "#!/bin/sh\necho 'just a string'\n",
		"site.pp": "notify { 'x': }\n",
	})
	if err := os.Chmod(filepath.Join(dir, "enc.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	code := run([]string{"compile", "n1", "--manifest", filepath.Join(dir, "site.pp"), "--facts", "none", "--enc", filepath.Join(dir, "enc.sh")}, &stdout, &stderr)
	if code != 1 || strings.Contains(stderr.String(), "undefined method") ||
		!strings.Contains(stderr.String(), "Could not load external node results for n1: the output must be a YAML hash of classes, parameters and environment, not 'just a string'") {
		t.Errorf("exit %d, stderr %q", code, stderr.String())
	}
}

// TestMaxValueSizeFlag: --max-value-size sets the compile's value size
// budget, and the error names the limit and the flag.
func TestMaxValueSizeFlag(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"site.pp": "$a = ['0123456789', '0123456789', '0123456789', '0123456789', '0123456789', '0123456789']\nnotify { \"${a}\": }\n",
	})
	args := []string{"compile", "n1", "--manifest", filepath.Join(dir, "site.pp"), "--facts", "none"}
	var stdout, stderr bytes.Buffer
	if code := run(args, &stdout, &stderr); code != 0 {
		t.Fatalf("default budget: exit %d: %s", code, stderr.String())
	}
	stdout.Reset()
	stderr.Reset()
	code := run(append(args, "--max-value-size", "40"), &stdout, &stderr)
	if code != 1 || !strings.Contains(stderr.String(), "MaxValueSize") || !strings.Contains(stderr.String(), "--max-value-size raises it") {
		t.Errorf("--max-value-size 40: exit %d, stderr %q", code, stderr.String())
	}
	stderr.Reset()
	if code := run(append(args, "--max-value-size", "0"), &stdout, &stderr); code != 2 {
		t.Errorf("--max-value-size 0: exit %d, want a usage error (2): %s", code, stderr.String())
	}
}
