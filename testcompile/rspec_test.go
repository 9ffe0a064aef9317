package testcompile

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/marionette-dev/marionette/internal/corpus"
)

// TestRspecPuppetSuite runs the demo module's rspec-puppet suite
// (testdata/rspec/demo: classes, defines, hosts, functions) through the
// Ruby adapter and a `marionette test-service` built from this tree, and
// checks that every example passes with every compile and call answered by
// marionette, none falling back to Puppet.
func TestRspecPuppetSuite(t *testing.T) {
	runDemoSuite(t, "")
}

// TestRspecPuppetSuiteUpstream runs the demo suite as TestRspecPuppetSuite
// does with the current upstream rspec-puppet (5.0.0) instead of Debian's
// 2.9: MARIONETTE_UPSTREAM_RSPEC_PUPPET names a checkout of its source
// (default ~/.cache/marionette/rspec-puppet), put first on Ruby's load
// path. An optional corpus: `git archive v5.0.0` of puppetlabs/rspec-puppet
// into that directory; the test skips with one line without it.
func TestRspecPuppetSuiteUpstream(t *testing.T) {
	dir := os.Getenv("MARIONETTE_UPSTREAM_RSPEC_PUPPET")
	if dir == "" {
		home, _ := os.UserHomeDir()
		dir = filepath.Join(home, ".cache", "marionette", "rspec-puppet")
	}
	if _, err := os.Stat(filepath.Join(dir, "lib", "rspec-puppet.rb")); err != nil {
		corpus.Absent(t, &corpus.AbsentError{
			Corpus: corpus.Corpus{Name: "upstream rspec-puppet", HowTo: "git archive v5.0.0 of puppetlabs/rspec-puppet there, or set MARIONETTE_UPSTREAM_RSPEC_PUPPET"},
			Dir:    dir,
		})
	}
	runDemoSuite(t, filepath.Join(dir, "lib"))
}

// runDemoSuite is TestRspecPuppetSuite with rubyLib, when not empty, first
// on Ruby's load path (another rspec-puppet).
func runDemoSuite(t *testing.T, rubyLib string) {
	if testing.Short() {
		t.Skip("runs rspec-puppet (tens of seconds); not in -short")
	}
	rspec, err := corpus.RspecPuppet()
	if err != nil {
		corpus.Absent(t, err)
	}
	root, err := corpus.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	bin := buildMarionette(t, root)
	// The module with the spec/fixtures layout rspec-puppet suites expect:
	// the module itself among the fixture modules.
	module := filepath.Join(tmp, "demo")
	if err := os.CopyFS(module, os.DirFS(filepath.Join(root, "testdata", "rspec", "demo"))); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(module, "spec", "fixtures", "modules"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(module, filepath.Join(module, "spec", "fixtures", "modules", "demo")); err != nil {
		t.Fatal(err)
	}
	logPath := filepath.Join(tmp, "requests.log")
	phasesPath := filepath.Join(tmp, "phases")
	results := filepath.Join(tmp, "results.json")
	cmd := exec.Command(rspec, "--format", "json", "--out", results, "spec/classes", "spec/defines", "spec/hosts", "spec/functions")
	cmd.Dir = module
	cmd.Env = append(os.Environ(),
		"RUBYOPT=-r"+filepath.Join(root, "rspec", "marionette_rspec"),
		"MARIONETTE_BIN="+bin,
		"MARIONETTE_RSPEC=on",
		"MARIONETTE_RSPEC_LOG="+logPath,
		"MARIONETTE_RSPEC_PHASES="+phasesPath,
		"MARIONETTE_RSPEC_CACHE="+filepath.Join(tmp, "ruby-cache"),
	)
	if rubyLib != "" {
		cmd.Env = append(cmd.Env, "RUBYLIB="+rubyLib)
		// The suite must really run on that rspec-puppet.
		cmd.Args = append(cmd.Args[:1], append([]string{"-r", filepath.Join(rubyLib, "rspec-puppet", "version")}, cmd.Args[1:]...)...)
	}
	out, runErr := cmd.CombinedOutput()
	data, err := os.ReadFile(results)
	if err != nil {
		t.Fatalf("rspec wrote no results (%v):\n%s", runErr, out)
	}
	var report struct {
		Examples []struct {
			FullDescription string `json:"full_description"`
			Status          string `json:"status"`
			Exception       struct {
				Message string `json:"message"`
			} `json:"exception"`
		} `json:"examples"`
	}
	if err := json.Unmarshal(data, &report); err != nil {
		t.Fatal(err)
	}
	if len(report.Examples) < 30 {
		t.Errorf("%d examples ran, want the suite's 34:\n%s", len(report.Examples), out)
	}
	for _, e := range report.Examples {
		if e.Status != "passed" {
			t.Errorf("%s: %s: %s", e.FullDescription, e.Status, e.Exception.Message)
		}
	}
	log, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatalf("no request went to marionette: %v", err)
	}
	var compiles, calls int
	for _, line := range strings.Split(strings.TrimSpace(string(log)), "\n") {
		if strings.Contains(line, " unsupported ") {
			t.Errorf("fell back to Puppet: %s", line)
		}
		switch {
		case strings.HasPrefix(line, "compile "):
			compiles++
		case strings.HasPrefix(line, "call ") && !strings.Contains(line, " puppet ("):
			calls++
		}
	}
	if compiles < 10 || calls < 4 {
		t.Errorf("%d compiles and %d calls went to marionette, want at least 10 and 4:\n%s", compiles, calls, log)
	}
	checkPhases(t, phasesPath, len(report.Examples))
}

// checkPhases checks the adapter's MARIONETTE_RSPEC_PHASES file of a run
// of the given number of examples: every phase is there, once each, the
// examples counted, some builds and calls timed, and no phase (nor the
// examples as a whole) longer than the whole process.
func checkPhases(t *testing.T, path string, examples int) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("no phases file: %v", err)
	}
	type phase struct {
		wall, cpu float64
		count     int
	}
	got := map[string]phase{}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var name string
		var p phase
		if _, err := fmt.Sscanf(line, "%s %g %g %d", &name, &p.wall, &p.cpu, &p.count); err != nil {
			t.Fatalf("phases line %q: %v", line, err)
		}
		if _, dup := got[name]; dup {
			t.Errorf("phase %s twice", name)
		}
		got[name] = p
	}
	for _, name := range []string{"load", "specs", "facts", "setup", "builds", "calls", "examples", "total"} {
		if _, ok := got[name]; !ok {
			t.Errorf("phase %s missing from:\n%s", name, data)
		}
	}
	total := got["total"]
	if got["examples"].count != examples || got["builds"].count == 0 || got["calls"].count == 0 || got["load"].cpu <= 0 {
		t.Errorf("phases: want %d examples, some builds and calls, a load time:\n%s", examples, data)
	}
	for name, p := range got {
		if name != "total" && (p.cpu > total.cpu || p.wall > total.wall) {
			t.Errorf("phase %s (%.3f s wall, %.3f s CPU) longer than the process (%.3f, %.3f)", name, p.wall, p.cpu, total.wall, total.cpu)
		}
	}
}

// buildMarionette builds cmd/marionette from this tree into the test's
// temporary directory.
func buildMarionette(t *testing.T, root string) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "marionette")
	build := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), "build", "-o", bin, "./cmd/marionette")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// TestFactSetsMatchFacterDB checks that the adapter's answers to FacterDB
// queries (rspec-puppet-facts' per-system queries, over two Facter
// versions, and queries of other shapes) are the fact sets FacterDB's own
// selection gives, from FacterDB's database on this machine
// (testdata/factsets_check.rb), and that the rspec-puppet-facts queries are
// answered, not left to FacterDB.
func TestFactSetsMatchFacterDB(t *testing.T) {
	root := rubyCheckRoot(t, "parses FacterDB's database in Ruby (seconds)")
	bin := buildMarionette(t, root)
	cmd := exec.Command("ruby", filepath.Join(root, "testcompile", "testdata", "factsets_check.rb"))
	cmd.Env = append(os.Environ(),
		"RUBYOPT=-r"+filepath.Join(root, "rspec", "marionette_rspec"),
		"MARIONETTE_BIN="+bin,
		"MARIONETTE_RSPEC=on",
		"MARIONETTE_RSPEC_CACHE="+t.TempDir(),
	)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("factsets_check.rb: %v\n%s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	summary := lines[len(lines)-1]
	var queries, answered, differ int
	if _, err := fmt.Sscanf(summary, "queries: %d; answered: %d; differ: %d", &queries, &answered, &differ); err != nil {
		t.Fatalf("no summary line (%v):\n%s", err, out)
	}
	if differ != 0 {
		t.Errorf("%d of %d answers differ from FacterDB's:\n%s", differ, answered, out)
	}
	// All but the five queries left to FacterDB are answered: [], an
	// empty hash in an array, a string, a dotted fact name, and a value
	// with a space outside quotes (which JGrep reads as two statements).
	if answered != queries-5 || queries < 50 {
		t.Errorf("%d of %d queries answered, want all but 5 of at least 50:\n%s", answered, queries, out)
	}
	// A selection whose statements were tested before is a few bit mask
	// operations, not a pass over FacterDB's fact sets: it tests no
	// statement again.
	again, tested := -1, -1
	for _, line := range lines {
		fmt.Sscanf(line, "selections again: %d; statements tested again: %d", &again, &tested)
	}
	if again <= 0 || tested != 0 {
		t.Errorf("selections made again: %d, statements tested again: %d; want some selections and no statement tested again:\n%s", again, tested, out)
	}
}

// TestFactSearch checks the adapter's factpath hook
// (testdata/factpath_check.rb): Facter's list of custom fact directories
// after many examples' setups is the one Puppet alone makes, and adding to
// it does not copy it (Puppet's hook copies the whole list every time:
// quadratic in the number of examples).
func TestFactSearch(t *testing.T) {
	off := runRubyCheckMode(t, "off", "factpath_check.rb", "list: ", "in_place: ")
	on := runRubyCheckMode(t, "on", "factpath_check.rb", "list: ", "in_place: ")
	if off["list: "] == "" {
		t.Fatalf("factpath_check.rb printed no list without the adapter: %q", off)
	}
	if on["list: "] != off["list: "] {
		t.Errorf("Facter's custom fact directories with the adapter: %s; Puppet's own: %s", on["list: "], off["list: "])
	}
	// Puppet's hook replaces the list with a copy at every call
	// (quadratic over a suite); the adapter's appends to it.
	if on["in_place: "] != "true" {
		t.Errorf("with the adapter, the factpath hook replaced Facter's list of custom fact directories (in place without it: %s)", off["in_place: "])
	}
}

// TestExampleSetupRequires checks that Puppet's per-example test setup
// makes no `require` with the adapter loaded (testdata/setup_check.rb):
// Puppet's makes one an example (a new Facter runtime), which costs an
// expansion of the whole load path the helper has just restored.
func TestExampleSetupRequires(t *testing.T) {
	got := runRubyCheck(t, "setup_check.rb", "requires: ", "facter: ")
	if got["requires: "] != "0" || got["facter: "] != "true" {
		t.Errorf("50 example setups with the adapter: want no require and a working Facter runtime, got %q", got)
	}
}

// TestConfineTest checks that the adapter answers Puppet::Confine.test
// for a confine Puppet has no class for (a fact, as providers confine on
// them) as Puppet does, without DidYouMean's spelling suggestions for the
// missing file (about 30 ms each, Puppet trying again at every confine):
// testdata/confine_check.rb, run with the adapter off and on.
func TestConfineTest(t *testing.T) {
	puppet := runRubyCheckMode(t, "off", "confine_check.rb", "answers: ")["answers: "]
	ours := runRubyCheckMode(t, "on", "confine_check.rb", "answers: ", "suggestions: ")
	if ours["answers: "] == "" || ours["answers: "] != puppet {
		t.Errorf("confine tests with the adapter: %q; Puppet's: %q", ours["answers: "], puppet)
	}
	if ours["suggestions: "] != "0" {
		t.Errorf("DidYouMean ran %s times with the adapter, want 0", ours["suggestions: "])
	}
}

// runRubyCheck runs a script of testdata with the adapter (on) loaded and
// returns its output's lines that start with prefix, the prefix removed.
func runRubyCheck(t *testing.T, script string, prefixes ...string) map[string]string {
	t.Helper()
	return runRubyCheckMode(t, "on", script, prefixes...)
}

// runRubyCheckMode is runRubyCheck with the adapter's MARIONETTE_RSPEC
// set to mode ("off": every hook of the adapter left out, as Puppet runs).
func runRubyCheckMode(t *testing.T, mode, script string, prefixes ...string) map[string]string {
	t.Helper()
	root := rubyCheckRoot(t, "runs Puppet in Ruby (seconds)")
	out := runRubyScript(t, root, script, mode)
	got := map[string]string{}
	for _, line := range strings.Split(out, "\n") {
		for _, p := range prefixes {
			if s, ok := strings.CutPrefix(line, p); ok {
				got[p] = s
			}
		}
	}
	return got
}

// TestStubFacts checks the adapter's fact stubbing after a build
// (testdata/stubfacts_check.rb): Facter is given the example's facts as
// rspec-puppet gives them, and the Facter.add of every fact is spared only
// when Facter already holds exactly those facts (the last stub's, nothing
// changed since: an add, or a search path that exists, makes it stub
// again).
func TestStubFacts(t *testing.T) {
	got := runRubyCheck(t, "stubfacts_check.rb", "steps: ")["steps: "]
	want := `first=2:"one" same=0:"one" changed=2:"two" back=2:"one" after_add=2:"one" after_missing_dir=0:"one" after_dir=2:"one"`
	if got != want {
		t.Errorf("stubs (Facter.add calls:Facter's answer):\n got %s\nwant %s", got, want)
	}
}

// TestCatalogBareTypes checks that a catalog marionette compiled loads
// into Puppet's catalog class without Puppet parsing the environment's
// code and manifests (testdata/baretypes_check.rb), its classes and
// defined types given their bare types, Class[Settings] none (as in an
// environment Puppet compiled nothing in), builtin types Puppet's.
func TestCatalogBareTypes(t *testing.T) {
	got := runRubyCheck(t, "baretypes_check.rb", "asked: ", "types: ", "hash: ", "searched: ")
	if got["asked: "] != "0" {
		t.Errorf("the environment's known resource types were asked for %s times, want 0", got["asked: "])
	}
	want := "Stage[main]=Puppet::Type::Stage Class[Settings]= Class[Main]=hostclass: Class[Demo]=hostclass:demo Demo::Thing[x]=definition:demo::thing Widget[w]=definition:widget File[/tmp/x]=Puppet::Type::File"
	if got["types: "] != want {
		t.Errorf("resource types:\n got %s\nwant %s", got["types: "], want)
	}
	if got["hash: "] != `{:name=>"x", :mode=>"0644"} {:name=>"w", :size=>2}` {
		t.Errorf("Demo::Thing[x].to_hash, Widget[w].to_hash = %s", got["hash: "])
	}
	// A defined type without '::' (concat) is known by its kind: no search
	// for a Ruby type of that name, which Puppet makes at every lookup.
	if strings.Contains(got["searched: "], "widget") {
		t.Errorf("searched for Ruby types %s, want no search for widget", got["searched: "])
	}
}

// TestPlainFacts checks that the adapter converts a build's facts to JSON
// data once while they stay the same (testdata/plainfacts_check.rb), and
// again, with the right result, when any value changes.
func TestPlainFacts(t *testing.T) {
	got := runRubyCheck(t, "plainfacts_check.rb", "steps: ")["steps: "]
	want := `first=9:{"os":{"family":"Debian","release":{"major":12}},"x":null,"y":["sym",null]} ` +
		`equal=0:{"os":{"family":"Debian","release":{"major":12}},"x":null,"y":["sym",null]} ` +
		`other=9:{"os":{"family":"Debian","release":{"major":12}},"x":"set","y":["sym",null]} ` +
		`nested=9:{"os":{"family":"RedHat","release":{"major":12}},"x":"set","y":["sym",null]}`
	if got != want {
		t.Errorf("conversions (values converted:result):\n got %s\nwant %s", got, want)
	}
}

// runRubyOnOff runs a script of testdata with the adapter loaded, on and
// then off, and returns both outputs.
func runRubyOnOff(t *testing.T, script string, env ...string) (on, off string) {
	t.Helper()
	root := rubyCheckRoot(t, "runs Puppet in Ruby (seconds)")
	return runRubyScript(t, root, script, "on", env...), runRubyScript(t, root, script, "off", env...)
}

// runRubyScript runs testdata's script with the adapter loaded, its
// MARIONETTE_RSPEC set to mode, a compiled-Ruby cache of the test's own
// and env added, and returns its output.
func runRubyScript(t *testing.T, root, script, mode string, env ...string) string {
	t.Helper()
	cmd := exec.Command("ruby", filepath.Join(root, "testcompile", "testdata", script))
	cmd.Env = append(os.Environ(), "RUBYOPT=-r"+filepath.Join(root, "rspec", "marionette_rspec"), "MARIONETTE_RSPEC="+mode,
		"MARIONETTE_RSPEC_CACHE="+t.TempDir())
	cmd.Env = append(cmd.Env, env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s (adapter %s): %v\n%s", script, mode, err, out)
	}
	return string(out)
}

// splitLast splits a script's output into its lines but the last, and the
// last.
func splitLast(out string) (body, last string) {
	out = strings.TrimSpace(out)
	i := strings.LastIndex(out, "\n")
	if i < 0 {
		return "", out
	}
	return out[:i], out[i+1:]
}

// TestOsFacts checks the adapter's rspec-puppet-facts on_supported_os
// (testdata/osfacts_check.rb): every answer, as the suite would see it
// (its Marshal form, a fresh copy each call), is rspec-puppet-facts' own
// through changes of everything the answer depends on (options, custom
// facts, SPEC_FACTS_OS, FacterDB queries, a common fact or a fact set a
// custom fact's proc kept changed in place, the cached answer changed in
// place after the suite queried FacterDB itself), and repeated calls dump
// nothing.
func TestOsFacts(t *testing.T) {
	root := rubyCheckRoot(t, "runs Puppet in Ruby (seconds)")
	on, off := runRubyOnOff(t, "osfacts_check.rb", "MARIONETTE_BIN="+buildMarionette(t, root))
	onBody, onLast := splitLast(on)
	offBody, offLast := splitLast(off)
	if onBody != offBody {
		t.Errorf("answers with the adapter:\n%s\nrspec-puppet-facts' own:\n%s", onBody, offBody)
	}
	if !strings.Contains(onBody, "fresh=true") || strings.Contains(onBody, "fresh=false") {
		t.Errorf("an answer shares objects with an earlier one:\n%s", onBody)
	}
	if offLast != "dumps of 20 calls: 20" {
		t.Errorf("rspec-puppet-facts' own: %q, want a dump a call (has it changed?)", offLast)
	}
	if onLast != "dumps of 20 calls: 2" {
		t.Errorf("with the adapter: %q, want two dumps (the form and its common facts' copy, made again after the last change)", onLast)
	}
}

// TestCatalogCache checks the adapter's lookups in rspec-puppet's catalog
// cache (testdata/catalogcache_check.rb): hits, misses, evictions, a build
// that changes its arguments, and arguments Marshal copies differently or
// refuses, all answered as rspec-puppet's own, and plain arguments looked
// up without a Marshal copy.
func TestCatalogCache(t *testing.T) {
	on, off := runRubyOnOff(t, "catalogcache_check.rb")
	onBody, onLast := splitLast(on)
	offBody, offLast := splitLast(off)
	if onBody != offBody {
		t.Errorf("lookups with the adapter:\n%s\nrspec-puppet's own:\n%s", onBody, offBody)
	}
	if offLast != "dumps of 10 plain lookups: 10" {
		t.Errorf("rspec-puppet's own: %q, want a dump a lookup (has it changed?)", offLast)
	}
	if onLast != "dumps of 10 plain lookups: 0" {
		t.Errorf("with the adapter: %q, want none", onLast)
	}
}

// TestPlainParameters checks that a catalog the adapter loads has each
// resource's parameters as Puppet's FromDataConverter makes them (the same
// shape, classes, keys and leaf objects; rich values, Deferred, Sensitive
// and Default, Puppet's own), and that parameters of plain data are copied
// without Puppet's builder objects (testdata/plainparams_check.rb).
func TestPlainParameters(t *testing.T) {
	checkOnOff(t, "plainparams_check.rb", "parameters", []string{"plain: same=true"}, []string{"=false"},
		"builders for the plain resource: 0")
}

// TestCoverageFilters checks the adapter's coverage bookkeeping after a
// build (testdata/coverage_check.rb): what rspec-puppet's coverage keeps of
// thirty builds' catalogs, with name and pattern filters, other modules'
// classes and resources declared in and out of the module, is what it
// keeps without the adapter, and the filter list (one longer every build)
// is not searched resource by resource.
func TestCoverageFilters(t *testing.T) {
	checkOnOff(t, "coverage_check.rb", "coverage", []string{"File[/etc/demo0]"}, nil, "searches of the filter list: 0")
}

// checkOnOff runs testdata's script with the adapter on and off and wants
// the same output but for its last line (a count of what the adapter
// spares): with the adapter, wantLast; without it, anything else (else the
// check no longer sees what it counts). The output must hold each of must
// and none of mustNot.
func checkOnOff(t *testing.T, script, what string, must, mustNot []string, wantLast string) {
	t.Helper()
	on, off := runRubyOnOff(t, script)
	onBody, onLast := splitLast(on)
	offBody, offLast := splitLast(off)
	ok := onBody == offBody
	for _, m := range must {
		ok = ok && strings.Contains(onBody, m)
	}
	for _, m := range mustNot {
		ok = ok && !strings.Contains(onBody, m)
	}
	if !ok {
		t.Errorf("%s with the adapter:\n%s\nwithout it:\n%s", what, onBody, offBody)
	}
	if onLast != wantLast {
		t.Errorf("with the adapter: %q, want %q", onLast, wantLast)
	}
	if offLast == onLast {
		t.Errorf("without the adapter: %q, the same (has it changed?)", offLast)
	}
}

// TestAutoloadFeatures checks that plugins Puppet's autoloader loads with
// the adapter on (testdata/autoload_check.rb: a type and its providers, a
// type from a directory on the load path, one that raises) leave what
// they leave under Puppet (each loaded once, recorded as a loaded feature
// and by the autoloader, a later require doing nothing, the failing one
// recorded and reported in Puppet's words) without changing
// $LOADED_FEATURES by hand, which Puppet does for every plugin and which
// makes Ruby rebuild its index of loaded features.
func TestAutoloadFeatures(t *testing.T) {
	prefixes := []string{"by hand: ", "loaded: ", "recorded: ", "broken: "}
	puppet := runRubyCheckMode(t, "off", "autoload_check.rb", prefixes...)
	ours := runRubyCheckMode(t, "on", "autoload_check.rb", prefixes...)
	for _, p := range prefixes[1:] {
		if ours[p] != puppet[p] {
			t.Errorf("%s\n with the adapter %s\n with Puppet      %s", p, ours[p], puppet[p])
		}
	}
	if want := "package=true apt=true fine=true loads=1 again=false"; ours["loaded: "] != want {
		t.Errorf("loaded: %s, want %s", ours["loaded: "], want)
	}
	if !strings.HasPrefix(ours["broken: "], "Puppet::Error: Could not autoload puppet/type/marionette_broken: broken on purpose recorded=true") {
		t.Errorf("broken: %s", ours["broken: "])
	}
	if ours["by hand: "] != "0" {
		t.Errorf("$LOADED_FEATURES changed by hand %s times with the adapter, want 0", ours["by hand: "])
	}
	if puppet["by hand: "] == "0" || puppet["by hand: "] == "" {
		t.Errorf("$LOADED_FEATURES changed by hand %q times with Puppet: the check sees no change", puppet["by hand: "])
	}
}

// TestModuleLibs checks rspec-puppet's per-example setup with the
// adapter (testdata/modulelibs_check.rb): the module path's */lib go on
// the load path as under Puppet, a module added is seen at the next
// setup, and the glob for them runs again only then.
func TestModuleLibs(t *testing.T) {
	prefixes := []string{"first: ", "again: ", "added: ", "vardirs: ", "tmpdir: "}
	puppet := runRubyCheckMode(t, "off", "modulelibs_check.rb", prefixes...)
	ours := runRubyCheckMode(t, "on", "modulelibs_check.rb", prefixes...)
	strip := func(s string) string { libs, _, _ := strings.Cut(s, " globs="); return libs }
	// Each example's vardir: made fresh and empty, Puppet's vardir setting,
	// in Ruby's temporary directory under Puppet, in /dev/shm with the
	// adapter when that is a directory anyone may write to (as on Linux).
	if want := puppet["tmpdir: "] + ",true,true,true"; puppet["vardirs: "] != want {
		t.Errorf("vardirs with Puppet: %s, want %s", puppet["vardirs: "], want)
	}
	wantOurs := puppet["vardirs: "]
	if st, err := os.Stat("/dev/shm"); err == nil && st.IsDir() && st.Mode()&os.ModeSticky != 0 && st.Mode().Perm()&0o002 != 0 && os.Getenv("TMPDIR") == "" {
		wantOurs = "/dev/shm,true,true,true"
	}
	if ours["vardirs: "] != wantOurs {
		t.Errorf("vardirs with the adapter: %s, want %s", ours["vardirs: "], wantOurs)
	}
	for _, p := range prefixes[:3] {
		if strip(ours[p]) != strip(puppet[p]) {
			t.Errorf("%s\n with the adapter %s\n with Puppet      %s", p, ours[p], puppet[p])
		}
	}
	if want := "a/one/lib,b/four/lib,b/three/lib"; ours["added: "] != want {
		t.Errorf("after a module was added: %s, want %s", ours["added: "], want)
	}
	if !strings.HasSuffix(ours["again: "], " globs=0") || strings.HasSuffix(puppet["again: "], " globs=0") {
		t.Errorf("globs of five more setups: with the adapter %q, with Puppet %q; want none with the adapter", ours["again: "], puppet["again: "])
	}
}

// TestMochaChecks checks the adapter's Mocha checks in an RSpec suite
// that mocks with Mocha (testdata/mocha_check.rb): the suite hook installs
// them, a stub whose checks are off takes no backtrace for them, and a
// check that is on raises what Mocha raises, with the same backtrace.
func TestMochaChecks(t *testing.T) {
	prefixes := []string{"allowed: ", "prevented: ", "installed: "}
	puppet := runRubyCheckMode(t, "off", "mocha_check.rb", prefixes...)
	ours := runRubyCheckMode(t, "on", "mocha_check.rb", prefixes...)
	// The adapter installs its checks from an RSpec suite hook, as Mocha
	// is loaded after it.
	if ours["installed: "] != "true" || puppet["installed: "] != "false" {
		t.Errorf("MochaChecks installed by the suite hook: %s with the adapter, %s with it off; want true and false", ours["installed: "], puppet["installed: "])
	}
	if ours["prevented: "] != puppet["prevented: "] || !strings.HasPrefix(ours["prevented: "], "Mocha::StubbingError: stubbing non-existent method: Thing.colour at :") {
		t.Errorf("a prevented stub:\n with the adapter %s\n with Mocha alone %s", ours["prevented: "], puppet["prevented: "])
	}
	var on, off int
	fmt.Sscanf(ours["allowed: "], "backtraces=%d", &on)
	fmt.Sscanf(puppet["allowed: "], "backtraces=%d", &off)
	// Ten stubs, four checks each, none of which reports.
	if off-on != 40 {
		t.Errorf("backtraces of ten allowed stubs: %d with the adapter, %d with Mocha alone; want 40 fewer", on, off)
	}
}

// TestCatalogTags checks the tags of the resources the adapter loads
// (testdata/catalogtags_check.rb): each resource's TagSet is Puppet's own
// (the same tags in the same order, frozen strings, a set of its own, an
// invalid tag refused in Puppet's words every time), and a tag list seen
// before is not checked tag by tag again.
func TestCatalogTags(t *testing.T) {
	checkOnOff(t, "catalogtags_check.rb", "tags", []string{"Invalid tag"}, []string{"own=false"}, "tag checks: 0")
}

// TestCompiledRuby checks the adapter's cache of compiled Ruby
// (testdata/compiledruby_check.rb): files loaded from it define what they
// define when Ruby compiles them (their __FILE__, __dir__ and lines), a
// changed file is compiled again, a file that does not compile raises
// Ruby's SyntaxError, the second run takes the files from the cache, and
// files under Ruby's temporary directory stay out of it (in memory for
// the run only).
func TestCompiledRuby(t *testing.T) {
	root := rubyCheckRoot(t, "runs Ruby (seconds)")
	src := t.TempDir()
	cache := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(src, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("thing.rb", "# A class.\nclass Thing\n  def self.describe\n    [__FILE__, __dir__, __LINE__, 'one']\n  end\nend\n")
	write("loaded.rb", "$loaded_value = 6 * 7\n")
	write("broken.rb", "def broken(\n")
	// Ruby's temporary directory is one of the test's own, apart from src
	// (files under it are kept in memory only: see the end).
	tmpdir := t.TempDir()
	run := func(mode string) map[string]string {
		cmd := exec.Command("ruby", filepath.Join(root, "testcompile", "testdata", "compiledruby_check.rb"), src)
		cmd.Env = append(os.Environ(), "RUBYOPT=-r"+filepath.Join(root, "rspec", "marionette_rspec"), "MARIONETTE_RSPEC="+mode,
			"MARIONETTE_RSPEC_CACHE="+cache, "CHECK_DIR="+src, "TMPDIR="+tmpdir)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("compiledruby_check.rb: %v\n%s", err, out)
		}
		got := map[string]string{}
		for _, line := range strings.Split(string(out), "\n") {
			if k, v, ok := strings.Cut(line, ": "); ok {
				got[k] = v
			}
		}
		return got
	}
	puppet := run("off")
	cold := run("on")
	warm := run("on")
	for _, k := range []string{"thing", "loaded", "broken"} {
		if cold[k] != puppet[k] || warm[k] != puppet[k] {
			t.Errorf("%s: Ruby alone %q, with the cache cold %q, warm %q", k, puppet[k], cold[k], warm[k])
		}
	}
	if want := "DIR/thing.rb DIR 4 one"; puppet["thing"] != want {
		t.Errorf("thing: %q, want %q", puppet["thing"], want)
	}
	// Three loads: thing.rb once, loaded.rb twice.
	if cold["from cache"] != "1" || warm["from cache"] != "3" {
		t.Errorf("loads from the cache: cold run %s, warm run %s; want 1 (loaded.rb again) and 3", cold["from cache"], warm["from cache"])
	}
	// A changed file (another size) is compiled again.
	write("thing.rb", "# A class.\nclass Thing\n  def self.describe\n    [__FILE__, __dir__, __LINE__, 'two!']\n  end\nend\n")
	changed := run("on")
	if want := "DIR/thing.rb DIR 4 two!"; changed["thing"] != want || changed["from cache"] != "2" {
		t.Errorf("after a change: thing %q (want %q), from cache %s (want 2, loaded.rb's)", changed["thing"], want, changed["from cache"])
	}
	// Files under Ruby's temporary directory (a copy made for one run)
	// are kept in memory only: loaded.rb's second load, not another run.
	entries := func() int {
		list, err := os.ReadDir(cache)
		if err != nil {
			t.Fatal(err)
		}
		return len(list)
	}
	before := entries()
	tmpdir = filepath.Dir(src)
	for i := 0; i < 2; i++ {
		got := run("on")
		if got["thing"] != changed["thing"] || got["loaded"] != puppet["loaded"] || got["from cache"] != "1" {
			t.Errorf("under the temporary directory, run %d: thing %q, loaded %q, from cache %s; want %q, %q, 1 (loaded.rb's second load)", i+1, got["thing"], got["loaded"], got["from cache"], changed["thing"], puppet["loaded"])
		}
	}
	if after := entries(); after != before {
		t.Errorf("cache entries after two runs of files under the temporary directory: %d, before %d", after, before)
	}
}

// TestFactSetsPrefetch checks that the adapter has the service read
// FacterDB's files as it loads (testdata/prefetch_check.rb), for a module
// whose spec files call on_supported_os: the request log starts with that
// prefetch, before the suite's first query, which is still answered by the
// adapter; for a module whose spec files do not, there is no prefetch.
// And that the service is waited for at exit, so its CPU time counts
// among the rspec process's children's (testdata/exitcpu_first.rb), as
// scripts/rspec-compare measures it.
func TestFactSetsPrefetch(t *testing.T) {
	root := rubyCheckRoot(t, "runs Puppet in Ruby (seconds)")
	bin := buildMarionette(t, root)
	td := filepath.Join(root, "testcompile", "testdata")
	run := func(spec string) (log string, sets, cpu int) {
		module := t.TempDir()
		if err := os.MkdirAll(filepath.Join(module, "spec", "classes"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(module, "spec", "classes", "demo_spec.rb"), []byte(spec), 0o644); err != nil {
			t.Fatal(err)
		}
		logPath := filepath.Join(t.TempDir(), "requests.log")
		cmd := exec.Command("ruby", filepath.Join(td, "prefetch_check.rb"))
		cmd.Dir = module
		cmd.Env = append(os.Environ(),
			"RUBYOPT=-r"+filepath.Join(td, "exitcpu_first")+" -r"+filepath.Join(root, "rspec", "marionette_rspec"),
			"MARIONETTE_BIN="+bin, "MARIONETTE_RSPEC=on", "MARIONETTE_RSPEC_LOG="+logPath, "MARIONETTE_RSPEC_CACHE="+t.TempDir())
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("prefetch_check.rb: %v\n%s", err, out)
		}
		sets, cpu = -1, -1
		for _, line := range strings.Split(string(out), "\n") {
			fmt.Sscanf(line, "sets: %d", &sets)
			fmt.Sscanf(line, "children_cpu_ms: %d", &cpu)
		}
		if sets <= 0 {
			t.Errorf("the query answered %d fact sets, want some:\n%s", sets, out)
		}
		data, err := os.ReadFile(logPath)
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimSpace(string(data)), sets, cpu
	}
	log, _, cpu := run("describe 'demo' do\n  on_supported_os.each do |os, facts|\n  end\nend\n")
	if cpu <= 0 {
		t.Errorf("children's CPU at exit: %d ms; want the service's (it read FacterDB's files)", cpu)
	}
	lines := strings.Split(log, "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "prefetch ok ") || !strings.HasPrefix(lines[1], "factsets ok ") {
		t.Errorf("request log:\n%s\nwant a prefetch, then the query's factsets request", log)
	}
	log, _, _ = run("describe 'demo' do\n  it { is_expected.to compile }\nend\n")
	if strings.Contains(log, "prefetch") || !strings.HasPrefix(log, "factsets ok ") {
		t.Errorf("request log of a module whose specs do not query FacterDB:\n%s\nwant the query's factsets request alone", log)
	}
}

// rubyCheckRoot skips t in -short (what says what the check runs) and
// where rspec-puppet is absent, and returns the repository's root.
func rubyCheckRoot(t *testing.T, what string) string {
	t.Helper()
	if testing.Short() {
		t.Skip(what + "; not in -short")
	}
	if _, err := corpus.RspecPuppet(); err != nil {
		corpus.Absent(t, err)
	}
	root, err := corpus.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	return root
}
