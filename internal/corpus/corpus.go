// Package corpus finds the test corpora that live outside the repository
// (the Forge modules, the site repositories, the benchmark generator, the
// Puppet oracles, Debian's module packages, a PuppetDB) and decides what a
// test does when one is absent: it skips with one line naming the corpus
// and how to get it, or, when MARIONETTE_CORPUS=1 (as CI sets it), fails.
//
// A person who clones the repository has none of them, so `go test ./...`
// must pass without them; CI has all of them, so there an absent corpus is
// a broken machine, not a reason to test less.
package corpus

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// RequiredEnv makes an absent corpus a test failure instead of a skip.
const RequiredEnv = "MARIONETTE_CORPUS"

// SharedEnv overrides the directory that holds the corpora beside the
// repository (default: ../shared, as laid out beside a checkout in CI).
const SharedEnv = "MARIONETTE_SHARED"

// Required reports whether an absent corpus must fail the test.
func Required() bool { return os.Getenv(RequiredEnv) == "1" }

// A Corpus is one body of test input kept outside the repository.
type Corpus struct {
	// Name says what it is, in the skip message ("the Forge module corpus").
	Name string
	// Env is the environment variable that names its directory.
	Env string
	// shared is its directory below the shared directory ("" when it has no
	// default place there).
	shared string
	// fixed is its directory when it has a fixed system place (Debian's
	// module packages install under /usr/share/puppet/modules).
	fixed string
	// probe is a path below the directory that must exist for the corpus
	// to count as present.
	probe string
	// HowTo says how to get it, in the skip message.
	HowTo string
	// Optional corpora are skipped when absent even where corpora are
	// Required: CI cannot build them (their sources are not on the
	// registries it reaches).
	Optional bool
}

// Forge is the 69 pinned Forge modules the forge and functions conformance
// cases, the Ruby survey and the Ruby helper's tests compile.
func Forge() Corpus {
	return Corpus{
		Name:   "the Forge module corpus",
		Env:    "MARIONETTE_FORGE",
		shared: "forge",
		probe:  "modules/stdlib/metadata.json",
		HowTo:  "run scripts/forge-corpus DIR, then set MARIONETTE_FORGE=DIR",
	}
}

// Sites is the pinned public site repositories.
func Sites() Corpus {
	return Corpus{
		Name:   "the site repositories corpus",
		Env:    "MARIONETTE_SITES",
		shared: "sites",
		probe:  "README.md",
		HowTo:  "set MARIONETTE_SITES to a directory of site control repositories laid out as shared/sites",
	}
}

// Bench is the benchmark workload generator (gen.py).
func Bench() Corpus {
	return Corpus{
		Name:   "the benchmark workload generator",
		Env:    "MARIONETTE_BENCH",
		shared: "bench",
		probe:  "gen.py",
		HowTo:  "set MARIONETTE_BENCH to the directory holding gen.py (shared/bench beside the repository)",
	}
}

// Oracle is the directory of the oracle scripts (puppet-compile, normalize)
// that run real Puppet 7.
func Oracle() Corpus {
	return Corpus{
		Name:   "the Puppet oracle",
		Env:    "MARIONETTE_ORACLE_DIR",
		shared: "oracle",
		probe:  "puppet-compile",
		HowTo:  "set MARIONETTE_ORACLE_DIR to the directory holding puppet-compile (shared/oracle beside the repository) and install puppet-agent",
	}
}

// DebianModules is Debian's puppet-module-* packages, installed where
// Debian installs them.
func DebianModules() Corpus {
	return Corpus{
		Name:  "Debian's puppet-module-* packages",
		Env:   "MARIONETTE_DEBIAN_MODULES",
		fixed: "/usr/share/puppet/modules",
		probe: "stdlib/metadata.json",
		HowTo: "apt-get install the puppet-module-* packages (.ci/run does)",
	}
}

// PerfControl is puppetserver's performance-test control repository with
// the modules its roles use, built by scripts/perf-control-corpus.
func PerfControl() Corpus {
	fixed := ""
	if cache, err := os.UserCacheDir(); err == nil {
		fixed = filepath.Join(cache, "marionette", "perf-control")
	}
	return Corpus{
		Name:     "puppetserver_perf_control",
		Env:      "MARIONETTE_PERF_CONTROL",
		fixed:    fixed,
		probe:    "environments/production/site/role/manifests/by_size/large.pp",
		HowTo:    "run scripts/perf-control-corpus DIR (it clones the control repository and its modules), then set MARIONETTE_PERF_CONTROL=DIR",
		Optional: true,
	}
}

// StdlibSpecs is puppetlabs-stdlib's source with its spec/ at the Forge
// corpus's version, laid out by scripts/stdlib-spec-corpus.
func StdlibSpecs() Corpus {
	fixed := ""
	if cache, err := os.UserCacheDir(); err == nil {
		fixed = filepath.Join(cache, "marionette", "stdlib-specs")
	}
	return Corpus{
		Name:     "puppetlabs-stdlib's rspec suites",
		Env:      "MARIONETTE_STDLIB_SPECS",
		fixed:    fixed,
		probe:    "stdlib/spec/functions/pw_hash_spec.rb",
		HowTo:    "run scripts/stdlib-spec-corpus DIR (it clones puppetlabs-stdlib at the Forge corpus's version), then set MARIONETTE_STDLIB_SPECS=DIR",
		Optional: true,
	}
}

// Dir returns the corpus's directory, or an error saying it is absent and
// how to get it.
func (c Corpus) Dir() (string, error) {
	dir := os.Getenv(c.Env)
	switch {
	case dir != "":
	case c.shared != "":
		dir = filepath.Join(SharedDir(), c.shared)
	default:
		dir = c.fixed
	}
	abs, err := filepath.Abs(dir)
	if err == nil {
		if _, err = os.Stat(filepath.Join(abs, c.probe)); err == nil {
			return abs, nil
		}
	}
	return "", &AbsentError{Corpus: c, Dir: dir}
}

// Path is Dir joined with elem.
func (c Corpus) Path(elem ...string) (string, error) {
	dir, err := c.Dir()
	if err != nil {
		return "", err
	}
	return filepath.Join(append([]string{dir}, elem...)...), nil
}

// Require returns the corpus's directory; when it is absent the test is
// skipped with one line (failed when Required).
func (c Corpus) Require(tb testing.TB) string {
	tb.Helper()
	dir, err := c.Dir()
	if err != nil {
		if c.Optional {
			tb.Skip(oneLine(err.Error()))
		}
		Absent(tb, err)
	}
	return dir
}

// AbsentError says a corpus is not where it was looked for.
type AbsentError struct {
	Corpus Corpus
	Dir    string // where it was looked for
}

func (e *AbsentError) Error() string {
	return fmt.Sprintf("%s is not at %s (%s)", e.Corpus.Name, e.Dir, e.Corpus.HowTo)
}

// Absent skips the test for err, one line; it fails the test instead when
// corpora are Required.
func Absent(tb testing.TB, err error) {
	tb.Helper()
	if Required() {
		tb.Fatalf("%s=1 but %v", RequiredEnv, err)
	}
	tb.Skip(oneLine(err.Error()))
}

// IsAbsent reports whether err says a corpus is absent.
func IsAbsent(err error) bool {
	var a *AbsentError
	return errors.As(err, &a)
}

// SharedDir is $MARIONETTE_SHARED, else the directory "shared" beside the
// repository's root.
func SharedDir() string {
	if d := os.Getenv(SharedEnv); d != "" {
		return d
	}
	root, err := RepoRoot()
	if err != nil {
		return "shared"
	}
	return filepath.Join(filepath.Dir(root), "shared")
}

// repoRoot is found once per process.
var repoRoot = sync.OnceValues(func() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && strings.HasPrefix(string(data), "module github.com/marionette-dev/marionette\n") {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("not inside the marionette repository (no go.mod of github.com/marionette-dev/marionette above the working directory)")
		}
		dir = parent
	}
})

// RepoRoot is the repository's root directory: the nearest directory above
// the working directory whose go.mod is marionette's (a test's working
// directory is its package's).
func RepoRoot() (string, error) { return repoRoot() }

// Puppet returns the path of the puppet command, or an AbsentError.
func Puppet() (string, error) {
	p, err := exec.LookPath("puppet")
	if err != nil {
		return "", &AbsentError{
			Corpus: Corpus{Name: "real Puppet 7 (the puppet command)", HowTo: "apt-get install puppet-agent (.ci/run does)"},
			Dir:    "PATH",
		}
	}
	return p, nil
}

// OraclePuppet8Dir is where scripts/puppet8 keeps its Debian trixie chroot
// with Puppet 8 ($MARIONETTE_PUPPET8_DIR, default /var/cache/marionette-puppet8).
func OraclePuppet8Dir() string {
	if d := os.Getenv("MARIONETTE_PUPPET8_DIR"); d != "" {
		return d
	}
	return "/var/cache/marionette-puppet8"
}

// Puppet8 returns the Puppet 8 oracle's command (scripts/puppet8 with its
// chroot built), or an AbsentError.
func Puppet8() (string, error) {
	root, err := RepoRoot()
	if err != nil {
		return "", err
	}
	dir := OraclePuppet8Dir()
	if _, err := os.Stat(filepath.Join(dir, "root", ".puppet-done")); err != nil {
		return "", &AbsentError{
			Corpus: Corpus{Name: "the Puppet 8 oracle", HowTo: "run scripts/puppet8 setup as root (.ci/run does)"},
			Dir:    dir,
		}
	}
	return filepath.Join(root, "scripts", "puppet8"), nil
}

func oneLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// Chromium returns the path of Debian's chromium browser (the HTML
// report's browser test runs it headless), or an AbsentError.
func Chromium() (string, error) {
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", &AbsentError{
		Corpus: Corpus{Name: "the chromium browser", HowTo: "apt-get install chromium (.ci/run does)"},
		Dir:    "PATH",
	}
}

// OctocatalogDiff returns the path of Debian's octocatalog-diff, which
// the diff comparison runs beside marionette diff, or an AbsentError.
func OctocatalogDiff() (string, error) {
	p, err := exec.LookPath("octocatalog-diff")
	if err != nil {
		return "", &AbsentError{
			Corpus: Corpus{Name: "octocatalog-diff", HowTo: "apt-get install octocatalog-diff (.ci/run does)"},
			Dir:    "PATH",
		}
	}
	return p, nil
}

// RspecPuppet returns the path of the rspec command when rspec-puppet can
// be loaded with it, or an AbsentError.
func RspecPuppet() (string, error) {
	absent := &AbsentError{
		Corpus: Corpus{Name: "rspec-puppet", HowTo: "apt-get install ruby-rspec-puppet ruby-rspec-puppet-facts ruby-puppetlabs-spec-helper (.ci/run does)"},
		Dir:    "PATH",
	}
	rspec, err := exec.LookPath("rspec")
	if err != nil {
		return "", absent
	}
	if exec.Command("ruby", "-e", "require 'rspec-puppet'").Run() != nil {
		return "", absent
	}
	return rspec, nil
}
