package conformance

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/marionette-dev/marionette/internal/corpus"
)

var (
	updateFlag       = flag.Bool("update", false, "rewrite expected.json / expected-error.txt of the selected cases with the oracle (real Puppet)")
	oracleSampleFlag = flag.Int("oracle-sample", 0, "recompile `N` sampled cases with the oracle; fail if any differs from the committed expected files")
	sampleSeedFlag   = flag.String("sample-seed", "", "seed of the -oracle-sample choice (default: the git HEAD commit)")
	casesFlag        = flag.String("cases", "", "comma-separated case IDs, globs (node/*) or case directories to select; default all")
	caseTimeoutFlag  = flag.Duration("case-timeout", 60*time.Second, "time limit of one compile or apply")
	applyCheckFlag   = flag.Bool("apply-check", false, "run TestApplyCheck: puppet apply --noop the catalog of every passing case")
	applySampleFlag  = flag.Int("apply-sample", 0, "with -apply-check: apply `N` of the selected cases, chosen by -sample-seed (default the git HEAD commit); 0 applies them all")
	fromOracleFlag   = flag.Bool("catalog-from-oracle", false, "with -apply-check: apply Puppet's own catalogs (pending cases included) instead of marionette's")
	actualDirFlag    = flag.String("actual-dir", "", "write marionette's normalized catalog of each failing case to `DIR`/<case>/actual.json")
	ignorePending    = flag.Bool("ignore-pending", false, "treat no case as pending, to see every failure in full")
	compilerFlag     = flag.String("marionette", "", "use this `executable` as the compiler instead of building ./cmd/marionette (the oracle's puppet-compile speaks the same CLI, which tests the harness itself)")
)

// Relative to this package's directory, where `go test` runs.
const (
	repoRootRel  = ".."
	casesRootRel = "../testdata/conformance"
	pendingFile  = "pending.txt"
	wordingFile  = "wording-differs.txt"
)

// maxOracleRuns bounds concurrent Puppet compiles: each takes a core.
const maxOracleRuns = 2

var oracleSlots = make(chan struct{}, maxOracleRuns)

// suite is what every test of the package shares, loaded once by TestMain.
type suite struct {
	repoRoot string
	all      []*Case
	selected []*Case
	pending  *PendingList
	wording  *WordingList
	err      error // why the suite could not be loaded
}

var theSuite suite

// tally counts outcomes for the summary line TestMain prints.
type tally struct {
	ran                     atomic.Bool
	passed, failed, skipped atomic.Int64
}

var (
	conformanceTally tally
	wordingTally     tally
	sampleTally      tally
	applyTally       tally
	sampleSeedUsed   string
)

// updateTally counts what -update did.
var updateTally struct {
	ran                           atomic.Bool
	unchanged, rewritten, problem atomic.Int64
}

var tmpDir string

// absentCorpora counts the cases skipped because the corpus they compile
// is absent, by the reason, for one summary line each.
var absentCorpora struct {
	sync.Mutex
	count map[string]int
}

// skipAbsentCorpus skips c when the corpus outside the repository that it
// compiles is absent (a failure when corpora are required, as in CI).
func skipAbsentCorpus(t *testing.T, c *Case) {
	cp, ok := c.Corpus()
	if !ok {
		return
	}
	_, err := cp.Dir()
	if err == nil {
		err = c.MachinePathsMissing()
	}
	if err != nil {
		if !corpus.Required() {
			conformanceTally.skipped.Add(1)
			absentCorpora.Lock()
			if absentCorpora.count == nil {
				absentCorpora.count = map[string]int{}
			}
			absentCorpora.count[err.Error()]++
			absentCorpora.Unlock()
		} else {
			conformanceTally.failed.Add(1)
		}
		corpus.Absent(t, err)
	}
}

func TestMain(m *testing.M) {
	flag.Parse()
	var err error
	tmpDir, err = os.MkdirTemp("", "marionette-conformance-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	theSuite = loadSuite()
	code := m.Run()
	os.RemoveAll(tmpDir)
	for reason, n := range absentCorpora.count {
		fmt.Printf("conformance: skipped %d cases: %s\n", n, reason)
	}
	if conformanceTally.ran.Load() {
		fmt.Printf("conformance: %d passed, %d failed, %d skipped\n",
			conformanceTally.passed.Load(), conformanceTally.failed.Load(), conformanceTally.skipped.Load())
	}
	if updateTally.ran.Load() {
		fmt.Printf("conformance -update: %d unchanged, %d rewritten, %d with problems\n",
			updateTally.unchanged.Load(), updateTally.rewritten.Load(), updateTally.problem.Load())
	}
	if wordingTally.ran.Load() {
		fmt.Printf("error wording: %d of %d error cases word the error exactly as Puppet does (the rest: %s)\n",
			wordingTally.passed.Load(), wordingTally.passed.Load()+wordingTally.skipped.Load(), wordingFile)
	}
	if sampleTally.ran.Load() {
		fmt.Printf("conformance -oracle-sample: %d agree with Puppet, %d differ (seed %q)\n",
			sampleTally.passed.Load(), sampleTally.failed.Load(), sampleSeedUsed)
	}
	if applyTally.ran.Load() {
		fmt.Printf("apply-check: %d passed, %d failed\n", applyTally.passed.Load(), applyTally.failed.Load())
	}
	os.Exit(code)
}

func loadSuite() suite {
	s := suite{}
	root, err := filepath.Abs(repoRootRel)
	if err != nil {
		return suite{err: err}
	}
	s.repoRoot = root
	if s.all, err = LoadCases(casesRootRel, filepath.Join(tmpDir, "cases")); err != nil {
		return suite{err: err}
	}
	var selectors []string
	for _, sel := range strings.Split(*casesFlag, ",") {
		if sel = strings.TrimSpace(sel); sel != "" {
			selectors = append(selectors, sel)
		}
	}
	if s.selected, err = SelectCases(s.all, casesRootRel, selectors); err != nil {
		return suite{err: err}
	}
	f, err := os.Open(filepath.Join(casesRootRel, pendingFile))
	if err != nil {
		return suite{err: err}
	}
	defer f.Close()
	if s.pending, err = ParsePending(f); err != nil {
		return suite{err: err}
	}
	wf, err := os.Open(filepath.Join(casesRootRel, wordingFile))
	if err != nil {
		return suite{err: err}
	}
	defer wf.Close()
	if s.wording, err = ParseWordingList(wf); err != nil {
		return suite{err: fmt.Errorf("%s: %v", wordingFile, err)}
	}
	return s
}

func loadedSuite(t *testing.T) *suite {
	t.Helper()
	if theSuite.err != nil {
		t.Fatalf("cannot load the conformance cases: %v", theSuite.err)
	}
	return &theSuite
}

// marionette builds ./cmd/marionette once per test binary.
var marionette = sync.OnceValues(func() (string, error) {
	if *compilerFlag != "" {
		return filepath.Abs(*compilerFlag)
	}
	bin := filepath.Join(tmpDir, "marionette")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/marionette")
	cmd.Dir = theSuite.repoRoot
	out, err := cmd.CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("go build ./cmd/marionette: %v\n%s", err, out)
	}
	return bin, nil
})

// TestConformance compiles every selected case with marionette and compares
// with Puppet's result. With -update it regenerates the expected files
// with the oracle instead.
func TestConformance(t *testing.T) {
	s := loadedSuite(t)
	if *updateFlag {
		runUpdate(t, s)
		return
	}
	conformanceTally.ran.Store(true)
	var ids []string
	for _, c := range s.all {
		ids = append(ids, c.ID)
	}
	if *ignorePending {
		s.pending = &PendingList{}
	}
	for _, r := range s.pending.Unused(ids) {
		t.Errorf("pending.txt:%d: %s matches no case: remove the line", r.Line, r.Pattern)
	}
	for _, c := range s.selected {
		t.Run(c.ID, func(t *testing.T) {
			t.Parallel()
			runCase(t, s, c)
		})
	}
}

// compileCase compiles a case in this process, or with the -marionette
// executable when one is given.
func compileCase(c *Case) (RunResult, error) {
	if *compilerFlag == "" {
		return CompileInProcess(context.Background(), c, *caseTimeoutFlag), nil
	}
	bin, err := marionette()
	if err != nil {
		return RunResult{}, err
	}
	return Run(context.Background(), *caseTimeoutFlag, c.Dir, nil, append([]string{bin}, c.CompileArgs()...)...)
}

func runCase(t *testing.T, s *suite, c *Case) {
	skipAbsentCorpus(t, c)
	var verdict Judgement
	res, err := compileCase(c)
	if err != nil {
		verdict.Problems = []string{err.Error()}
	} else {
		verdict = Judge(c, res, *caseTimeoutFlag)
	}
	passed := len(verdict.Problems) == 0
	if passed && c.IsErrorCase() && !c.Legacy {
		checkWording(t, s, c, verdict.stderr)
	}
	rule, pending := s.pending.Match(c.ID)
	switch {
	case pending && passed:
		conformanceTally.failed.Add(1)
		t.Errorf("case %s passes: remove it from pending.txt (line %d: %s %s)", c.ID, rule.Line, rule.Pattern, rule.Issue)
	case pending:
		conformanceTally.skipped.Add(1)
		t.Skipf("pending on %s (pending.txt:%d): %s", rule.Issue, rule.Line, oneLine(verdict.Problems[0]))
	case passed:
		conformanceTally.passed.Add(1)
	default:
		conformanceTally.failed.Add(1)
		writeActual(t, c, verdict.Actual)
		t.Errorf("%s (%s)\n  %s", c.ID, c.Description, strings.Join(verdict.Problems, "\n  "))
	}
}

// checkWording compares the whole first error message with Puppet's: a
// case must word it exactly as Puppet does unless wording-differs.txt lists
// it, and a listed case that now matches must leave the list.
func checkWording(t *testing.T, s *suite, c *Case, stderr []byte) {
	puppet, ours, err := ErrorWording(c, stderr)
	if err != nil {
		t.Error(err)
		return
	}
	wordingTally.ran.Store(true)
	line, listed := s.wording.Lines[c.ID]
	switch {
	case puppet == ours && listed:
		t.Errorf("%s now words its error as Puppet does: remove it from %s (line %d)", c.ID, wordingFile, line)
	case puppet == ours:
		wordingTally.passed.Add(1)
	case listed:
		wordingTally.skipped.Add(1)
	default:
		t.Errorf("%s: the error is worded differently from Puppet's (fix it, or list the case in %s with the reason):\n  Puppet:     %s\n  marionette: %s", c.ID, wordingFile, puppet, ours)
	}
}

func writeActual(t *testing.T, c *Case, actual map[string]any) {
	if *actualDirFlag == "" || actual == nil {
		return
	}
	dir := filepath.Join(*actualDirFlag, filepath.FromSlash(c.ID))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Log(err)
		return
	}
	p := filepath.Join(dir, "actual.json")
	if err := os.WriteFile(p, EncodePython(actual), 0o644); err != nil {
		t.Log(err)
		return
	}
	t.Logf("our normalized catalog: %s", p)
}

// oneLine squeezes a problem report into a short single line for skips.
func oneLine(s string) string {
	const max = 200
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > max {
		return s[:max] + " ..."
	}
	return s
}

// TestCaseLayout checks that every case follows the case format, whatever
// marionette does: required keys, inputs present, exactly one expected file
// and an error substring that Puppet's message contains.
func TestCaseLayout(t *testing.T) {
	s := loadedSuite(t)
	if len(s.all) == 0 {
		t.Fatal("no cases found")
	}
	for _, c := range s.all {
		for _, err := range c.Check() {
			t.Errorf("%s: %v", c.ID, err)
		}
	}
}

// withOracleSlot runs f while holding one of the maxOracleRuns slots.
func withOracleSlot(f func()) {
	oracleSlots <- struct{}{}
	defer func() { <-oracleSlots }()
	f()
}

// oracleTimeout is longer than a marionette compile: Puppet starts slowly.
func oracleTimeout() time.Duration { return 5 * *caseTimeoutFlag }

func oracleOrSkip(t *testing.T, s *suite, what string) string {
	t.Helper()
	oracle, err := FindOracle(s.repoRoot)
	if err != nil {
		corpus.Absent(t, fmt.Errorf("%s needs real Puppet: %w", what, err))
	}
	return oracle
}

func runUpdate(t *testing.T, s *suite) {
	oracle := oracleOrSkip(t, s, "-update")
	updateTally.ran.Store(true)
	for _, c := range s.selected {
		t.Run(c.ID, func(t *testing.T) {
			t.Parallel()
			updateCase(t, oracle, c)
		})
	}
}

func updateCase(t *testing.T, oracle string, c *Case) {
	var r struct {
		out OracleOutcome
		err error
	}
	oracle, err := OracleFor(theSuite.repoRoot, oracle, c)
	if err != nil {
		updateTally.problem.Add(1)
		t.Fatal(err)
	}
	withOracleSlot(func() { r.out, r.err = RunOracle(context.Background(), oracle, c.Dir, false, oracleTimeout()) })
	if r.err != nil {
		updateTally.problem.Add(1)
		t.Fatal(r.err)
	}
	write, remove := ExpectedCatalog, ExpectedError
	if !r.out.Compiled {
		write, remove = ExpectedError, ExpectedCatalog
	}
	target := filepath.Join(c.Dir, write)
	old, _ := os.ReadFile(target)
	_, removedErr := os.Stat(filepath.Join(c.Dir, remove))
	if err := os.WriteFile(target, r.out.Output, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(c.Dir, remove)); err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	if err := c.SaveExpected(); err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(old, r.out.Output) && removedErr != nil {
		updateTally.unchanged.Add(1)
	} else {
		updateTally.rewritten.Add(1)
		t.Logf("rewrote %s", filepath.Join(c.ID, write))
	}
	var problems []string
	switch {
	case r.out.Compiled && c.IsErrorCase():
		problems = append(problems, fmt.Sprintf("Puppet compiles this case, but case.yaml says error: %q", c.Error))
	case !r.out.Compiled && !c.IsErrorCase():
		problems = append(problems, "Puppet fails this case: add an error: substring to case.yaml (or fix the case). Puppet says:\n"+indent(string(r.out.Output)))
	case !r.out.Compiled && !strings.Contains(string(r.out.Output), c.Error):
		problems = append(problems, fmt.Sprintf("error: %q does not occur in Puppet's message:\n%s", c.Error, indent(string(r.out.Output))))
	}
	for _, err := range c.Check() {
		problems = append(problems, err.Error())
	}
	if len(problems) > 0 {
		updateTally.problem.Add(1)
		t.Errorf("%s:\n  %s", c.ID, strings.Join(problems, "\n  "))
	}
}

// TestOracleSample recompiles a deterministic sample of cases with real
// Puppet and fails if any expected file no longer matches, which keeps the
// committed expectations honest (CI runs it with -oracle-sample 10).
func TestOracleSample(t *testing.T) {
	if *oracleSampleFlag <= 0 {
		t.Skip("enable with -oracle-sample N")
	}
	s := loadedSuite(t)
	oracle := oracleOrSkip(t, s, "-oracle-sample")
	seed := *sampleSeedFlag
	if seed == "" {
		seed = gitHead(s.repoRoot)
	}
	sampleSeedUsed = seed
	sampleTally.ran.Store(true)
	sample := SampleCases(s.selected, *oracleSampleFlag, seed)
	t.Logf("checking %d of %d cases against Puppet (seed %q)", len(sample), len(s.selected), seed)
	for _, c := range sample {
		t.Run(c.ID, func(t *testing.T) {
			t.Parallel()
			skipAbsentCorpus(t, c)
			problems := checkAgainstOracle(oracle, c)
			if len(problems) == 0 {
				sampleTally.passed.Add(1)
				return
			}
			sampleTally.failed.Add(1)
			t.Errorf("%s: the committed expected file differs from what Puppet says now (\"expected\" = Puppet now, \"got\" = committed; run scripts/regen-conformance %s):\n  %s",
				c.ID, filepath.Join("testdata/conformance", c.ID), strings.Join(problems, "\n  "))
		})
	}
}

func checkAgainstOracle(oracle string, c *Case) []string {
	var r struct {
		out OracleOutcome
		err error
	}
	oracle, err := OracleFor(theSuite.repoRoot, oracle, c)
	if err != nil {
		return []string{err.Error()}
	}
	withOracleSlot(func() { r.out, r.err = RunOracle(context.Background(), oracle, c.Dir, false, oracleTimeout()) })
	if r.err != nil {
		return []string{r.err.Error()}
	}
	if !r.out.Compiled {
		committed, err := os.ReadFile(filepath.Join(c.Dir, ExpectedError))
		switch {
		case err != nil:
			return []string{"Puppet now fails this case:\n" + indent(string(r.out.Output))}
		case !bytes.Equal(maskRubyAddresses(committed), maskRubyAddresses(r.out.Output)):
			return []string{"Puppet's error message changed; now:\n" + indent(string(r.out.Output))}
		}
		return nil
	}
	path := filepath.Join(c.Dir, ExpectedCatalog)
	committed, err := os.ReadFile(path)
	if err != nil {
		return []string{"Puppet now compiles this case"}
	}
	if bytes.Equal(committed, r.out.Output) {
		return nil
	}
	want, err := readNormalized(path)
	if err != nil {
		return []string{err.Error()}
	}
	fresh, err := decodeNormalized(r.out.Output)
	if err != nil {
		return []string{err.Error()}
	}
	if diffs := DiffCatalogs(fresh, want); len(diffs) > 0 {
		return diffs
	}
	return []string{ExpectedCatalog + " is not byte-identical to the oracle's output"}
}

func gitHead(repoRoot string) string {
	cmd := exec.Command("git", "rev-parse", "HEAD")
	cmd.Dir = repoRoot
	out, err := cmd.Output()
	if err != nil {
		return "no-git-head"
	}
	return strings.TrimSpace(string(out))
}

// TestApplyCheck feeds the catalog of every passing case (not pending, not
// an error case) to `puppet apply --noop` and checks the agent accepts it.
// With -catalog-from-oracle it applies Puppet's own catalogs, which tests
// the check itself before marionette can compile anything.
func TestApplyCheck(t *testing.T) {
	if !*applyCheckFlag {
		t.Skip("enable with -apply-check (see scripts/apply-check)")
	}
	s := loadedSuite(t)
	if _, err := corpus.Puppet(); err != nil {
		corpus.Absent(t, fmt.Errorf("apply-check: %w", err))
	}
	var oracle string
	if *fromOracleFlag {
		oracle = oracleOrSkip(t, s, "-catalog-from-oracle")
	}
	applyTally.ran.Store(true)
	var applicable []*Case
	for _, c := range s.selected {
		if c.IsErrorCase() {
			continue
		}
		if _, pending := s.pending.Match(c.ID); pending && !*fromOracleFlag {
			continue
		}
		applicable = append(applicable, c)
	}
	if n := *applySampleFlag; n > 0 && n < len(applicable) {
		// Each apply takes seconds: CI applies a sample that changes with
		// every commit, so that over commits every case gets applied.
		seed := *sampleSeedFlag
		if seed == "" {
			seed = gitHead(s.repoRoot)
		}
		t.Logf("applying %d of %d cases (seed %q)", n, len(applicable), seed)
		applicable = SampleCases(applicable, n, seed)
	}
	for _, c := range applicable {
		t.Run(c.ID, func(t *testing.T) {
			if c.ApplySkip != "" {
				t.Skipf("apply_skip: %s", c.ApplySkip)
			}
			skipAbsentCorpus(t, c)
			t.Parallel()
			problems := applyCase(t, c, oracle)
			if len(problems) == 0 {
				applyTally.passed.Add(1)
				return
			}
			applyTally.failed.Add(1)
			t.Errorf("%s: the agent rejects the catalog:\n  %s", c.ID, strings.Join(problems, "\n  "))
		})
	}
}

func applyCase(t *testing.T, c *Case, oracle string) []string {
	var catalog []byte
	if oracle != "" {
		var r struct {
			out OracleOutcome
			err error
		}
		withOracleSlot(func() { r.out, r.err = RunOracle(context.Background(), oracle, c.Dir, true, oracleTimeout()) })
		if r.err != nil {
			return []string{r.err.Error()}
		}
		if !r.out.Compiled {
			return []string{"Puppet does not compile this case:\n" + indent(string(r.out.Output))}
		}
		catalog = r.out.Output
	} else {
		res, err := compileCase(c)
		if err != nil {
			return []string{err.Error()}
		}
		if res.TimedOut || res.Panic != "" || res.ExitCode != 0 {
			return []string{fmt.Sprintf("marionette compile failed (exit %d):\n%s", res.ExitCode, indent(string(res.Stderr)+res.Panic))}
		}
		catalog = res.Stdout
	}
	var problems []string
	var err error
	workDir := t.TempDir()
	withOracleSlot(func() { problems, err = ApplyNoop(context.Background(), catalog, workDir, *caseTimeoutFlag) })
	if err != nil {
		return []string{err.Error()}
	}
	return problems
}
