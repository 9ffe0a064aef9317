package conformance

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/marionette-dev/marionette/internal/corpus"
)

// Names of the files of a case directory.
const (
	CaseFile        = "case.yaml"
	ExpectedCatalog = "expected.json"
	ExpectedError   = "expected-error.txt"
	FactsFile       = "facts.yaml"
	HieraConfigFile = "hiera.yaml"
	ManifestDir     = "manifests"
	SiteManifest    = "site.pp"
	ModulesDir      = "modules"
	// SitesArea is the area of the cases that compile the site
	// repositories of shared/sites.
	SitesArea         = "sites"
	DeprecationMarker = "deprecat" // what a legacy case's warning must mention
)

// Case is one conformance case directory.
type Case struct {
	ID  string // slash-separated path below the cases root, e.g. node/exact-name
	Dir string // absolute directory (an archive case's work directory)
	// Archive is the case's .txtar file when it is one ("" for a directory).
	Archive string

	Node                   string `yaml:"node"`
	Description            string `yaml:"description"`
	ENC                    string `yaml:"enc"`
	StrictHostnameChecking *bool  `yaml:"strict_hostname_checking"`
	Environment            string `yaml:"environment"`
	Error                  string `yaml:"error"`
	Legacy                 bool   `yaml:"legacy"`
	// ApplySkip, when set, says why the apply check cannot run this case's
	// catalog here (its providers need services this machine lacks).
	ApplySkip string `yaml:"apply_skip"`
	// Puppet is the Puppet major the expected files were generated with
	// (0 means 7); the case compiles with --puppet-version of it.
	Puppet int `yaml:"puppet"`
	// FunctionFiles names the Ruby function files whose sample calls the
	// case makes, as <module>/<path in the module>
	// (stdlib/lib/puppet/functions/stdlib/to_json.rb): the Ruby survey
	// counts a file as agreeing with Puppet when a passing case names it.
	FunctionFiles []string `yaml:"function_files"`
	// RubyHelper, in the functions area, says why the case's function
	// needs the Ruby helper (a process, a file of the machine); the
	// other cases of that area compile with the Ruby subset alone
	// (ruby_functions=subset), so that they show the subset runs them.
	RubyHelper string `yaml:"ruby_helper"`
}

// FunctionsArea is the area of the sample calls of module Ruby functions.
const FunctionsArea = "functions"

// SubsetOnly reports whether the case compiles with the Ruby subset
// alone: a case of the functions area without ruby_helper, or one named
// ruby-subset-* (module Ruby that the subset must run, checked against
// Puppet).
func (c *Case) SubsetOnly() bool {
	return strings.HasPrefix(c.ID, FunctionsArea+"/") && c.RubyHelper == "" || strings.HasPrefix(path.Base(c.ID), "ruby-subset-")
}

// LoadCases finds every case below root, sorted by ID: each directory
// holding a case.yaml, and each case archive (<name>.txtar), which is laid
// out in a directory below workRoot.
func LoadCases(root, workRoot string) ([]*Case, error) {
	root, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	var cases []*Case
	seen := map[string]bool{}
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		var c *Case
		switch {
		case d.IsDir():
			return nil
		case d.Name() == CaseFile:
			dir := filepath.Dir(p)
			rel, err := filepath.Rel(root, dir)
			if err != nil {
				return err
			}
			if c, err = ReadCase(dir, filepath.ToSlash(rel)); err != nil {
				return err
			}
		case strings.HasSuffix(d.Name(), ArchiveExt):
			rel, err := filepath.Rel(root, strings.TrimSuffix(p, ArchiveExt))
			if err != nil {
				return err
			}
			if c, err = readArchiveCase(p, filepath.ToSlash(rel), workRoot); err != nil {
				return err
			}
		default:
			return nil
		}
		if seen[c.ID] {
			return fmt.Errorf("case %s is both a directory and an archive", c.ID)
		}
		seen[c.ID] = true
		cases = append(cases, c)
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.Slice(cases, func(i, j int) bool { return cases[i].ID < cases[j].ID })
	return cases, nil
}

// ReadCase parses dir/case.yaml. Unknown keys are errors, so that a typo
// (say, "strict_hostname_check") cannot silently change what a case tests.
func ReadCase(dir, id string) (*Case, error) {
	data, err := os.ReadFile(filepath.Join(dir, CaseFile))
	if err != nil {
		return nil, err
	}
	c := &Case{ID: id, Dir: dir}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(c); err != nil {
		return nil, fmt.Errorf("%s/%s: %v", id, CaseFile, err)
	}
	return c, nil
}

// ManifestPath is manifests/ when the case has that directory, else site.pp.
func (c *Case) ManifestPath() string {
	dir := filepath.Join(c.Dir, ManifestDir)
	if st, err := os.Stat(dir); err == nil && st.IsDir() {
		return dir
	}
	return filepath.Join(c.Dir, SiteManifest)
}

// HieraConfigPath is the case's hiera.yaml, or "" without one.
func (c *Case) HieraConfigPath() string {
	p := filepath.Join(c.Dir, HieraConfigFile)
	if _, err := os.Stat(p); err == nil {
		return p
	}
	return ""
}

// Corpus is the corpus outside the repository that the case's modules
// come from, when its modules directory is a symlink to one: the Forge
// modules (a link into shared/forge/modules beside the repository) or
// Debian's module packages (a link to /usr/share/puppet/modules).
func (c *Case) Corpus() (corpus.Corpus, bool) {
	// A sites case links its manifests and modules, one by one, into
	// shared/sites beside the repository (see the area's README).
	if strings.HasPrefix(c.ID, SitesArea+"/") {
		return corpus.Sites(), true
	}
	target, err := os.Readlink(filepath.Join(c.Dir, ModulesDir))
	if err != nil {
		return corpus.Corpus{}, false
	}
	target = filepath.ToSlash(target)
	switch {
	case strings.HasSuffix(target, "shared/forge/modules"):
		return corpus.Forge(), true
	case strings.Contains(target, "shared/sites/"):
		// A functions case of a site's own module (functions/site-*).
		return corpus.Sites(), true
	case target == "/usr/share/puppet/modules":
		return corpus.DebianModules(), true
	}
	return corpus.Corpus{}, false
}

// ModulePath is the case's module directory: the corpus's when the case
// compiles one (so MARIONETTE_FORGE can put the Forge modules anywhere),
// else its own modules/. The error says a corpus is absent.
//
// When the case's link reaches the corpus it is the path used, so that
// file names in catalogs and messages read as Puppet's through that link.
func (c *Case) ModulePath() (string, error) {
	link := filepath.Join(c.Dir, ModulesDir)
	cp, ok := c.Corpus()
	if !ok {
		return link, nil
	}
	dir, err := cp.Dir()
	if cp.Env == corpus.Sites().Env {
		// Its links reach shared/sites wherever MARIONETTE_SITES points.
		return link, err
	}
	if err != nil {
		return "", err
	}
	if cp.Env == corpus.Forge().Env {
		dir = filepath.Join(dir, "modules")
	}
	if sameDir(link, dir) {
		return link, nil
	}
	return dir, nil
}

// sameDir reports whether a and b are the same directory once symlinks
// are resolved.
func sameDir(a, b string) bool {
	ra, errA := filepath.EvalSymlinks(a)
	rb, errB := filepath.EvalSymlinks(b)
	return errA == nil && errB == nil && ra == rb
}

// Bases are the directories the catalog's file names are made relative
// to: the case's own, and the corpus's whose modules/ it compiles (a
// file there is named modules/<module>/..., as through the case's link).
func (c *Case) Bases() []string {
	bases := []string{c.Dir}
	if cp, ok := c.Corpus(); ok && cp.Env == corpus.Forge().Env {
		if dir, err := cp.Dir(); err == nil {
			bases = append(bases, dir)
		}
	}
	return bases
}

// CompileArgs are the arguments of `marionette compile` for this case, per
// the CLI contract, with absolute paths so that the catalog's file names can
// be made relative to the case directory.
func (c *Case) CompileArgs() []string {
	modules, err := c.ModulePath()
	if err != nil {
		modules = filepath.Join(c.Dir, ModulesDir)
	}
	args := []string{"compile", c.Node,
		"--manifest", c.ManifestPath(),
		"--modulepath", modules,
		"--facts", filepath.Join(c.Dir, FactsFile),
	}
	if c.ENC != "" {
		args = append(args, "--enc", filepath.Join(c.Dir, c.ENC))
	}
	if h := c.HieraConfigPath(); h != "" {
		args = append(args, "--hiera-config", h)
	}
	if c.Environment != "" {
		args = append(args, "--environment", c.Environment)
	}
	if c.StrictHostnameChecking != nil {
		args = append(args, "--strict-hostname-checking="+strconv.FormatBool(*c.StrictHostnameChecking))
	}
	return append(args, c.puppetVersionArgs()...)
}

// IsErrorCase reports whether Puppet fails to compile this case.
func (c *Case) IsErrorCase() bool { return c.Error != "" }

var caseNamePattern = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// Check returns every way the case directory breaks the case format.
func (c *Case) Check() []error {
	var errs []error
	fail := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	if !caseNamePattern.MatchString(path.Base(c.ID)) {
		fail("case directory name %q is not kebab-case", path.Base(c.ID))
	}
	if strings.TrimSpace(c.Node) == "" {
		fail("case.yaml: node is required")
	}
	if c.RubyHelper != "" && !strings.HasPrefix(c.ID, FunctionsArea+"/") {
		fail("case.yaml: ruby_helper is for the %s area", FunctionsArea)
	}
	if strings.TrimSpace(c.Description) == "" {
		fail("case.yaml: description is required")
	}
	if err := c.checkPuppet(); err != nil {
		errs = append(errs, err)
	}
	if c.Legacy && c.Error == "" {
		fail("case.yaml: legacy: true only makes sense with error: (Puppet 7 rejects legacy forms)")
	}
	if !exists(c.ManifestPath()) {
		fail("neither %s/ nor %s exists", ManifestDir, SiteManifest)
	}
	if !exists(filepath.Join(c.Dir, FactsFile)) {
		fail("%s is missing", FactsFile)
	}
	// A modules symlink to a known corpus may dangle (the corpus is
	// absent, and the case is skipped); any other dangling link is a
	// broken case.
	modules := filepath.Join(c.Dir, ModulesDir)
	if st, err := os.Lstat(modules); err == nil && st.Mode()&os.ModeSymlink != 0 && !exists(modules) {
		if _, known := c.Corpus(); !known {
			target, _ := os.Readlink(modules)
			fail("%s is a symlink to %s, which does not exist", ModulesDir, target)
		}
	}
	if c.ENC != "" {
		st, err := os.Stat(filepath.Join(c.Dir, c.ENC))
		switch {
		case err != nil:
			fail("enc %s: %v", c.ENC, err)
		case st.Mode()&0o111 == 0:
			fail("enc %s is not executable (chmod +x)", c.ENC)
		}
	}
	hasCatalog := exists(filepath.Join(c.Dir, ExpectedCatalog))
	hasError := exists(filepath.Join(c.Dir, ExpectedError))
	switch {
	case hasCatalog && hasError:
		fail("both %s and %s exist; regenerate the case", ExpectedCatalog, ExpectedError)
	case !hasCatalog && !hasError:
		fail("no %s or %s; run scripts/regen-conformance %s", ExpectedCatalog, ExpectedError, c.ID)
	case hasError && c.Error == "":
		fail("Puppet fails this case (%s) but case.yaml has no error: substring", ExpectedError)
	case hasCatalog && c.Error != "":
		fail("case.yaml expects error %q but Puppet compiled the case (%s)", c.Error, ExpectedCatalog)
	case hasError:
		msg, err := os.ReadFile(filepath.Join(c.Dir, ExpectedError))
		if err != nil {
			fail("%v", err)
		} else if !strings.Contains(string(msg), c.Error) {
			fail("error substring %q does not occur in %s", c.Error, ExpectedError)
		}
	}
	return errs
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// SelectCases keeps the cases named by selectors: case IDs, globs over IDs
// (path.Match), or case directories given as paths (relative to the current
// directory or absolute). No selectors selects every case. A selector that
// matches nothing is an error, so that a typo does not silently test nothing.
func SelectCases(cases []*Case, root string, selectors []string) ([]*Case, error) {
	if len(selectors) == 0 {
		return cases, nil
	}
	absRoot, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	chosen := map[string]bool{}
	for _, sel := range selectors {
		pattern := selectorPattern(sel, absRoot)
		if _, err := path.Match(pattern, ""); err != nil {
			return nil, fmt.Errorf("case selector %q: %v", sel, err)
		}
		matched := false
		for _, c := range cases {
			if ok, _ := path.Match(pattern, c.ID); ok {
				chosen[c.ID] = true
				matched = true
			}
		}
		if !matched {
			return nil, fmt.Errorf("case selector %q matches no case", sel)
		}
	}
	var out []*Case
	for _, c := range cases {
		if chosen[c.ID] {
			out = append(out, c)
		}
	}
	if len(out) == 0 {
		return nil, errors.New("no case selected")
	}
	return out, nil
}

// selectorPattern turns a case directory's or archive's path into a case
// ID when it lies below root; anything else is taken as an ID or glob.
func selectorPattern(sel, absRoot string) string {
	sel = strings.TrimSuffix(sel, "/")
	if abs, err := filepath.Abs(sel); err == nil && exists(abs) {
		if rel, err := filepath.Rel(absRoot, abs); err == nil && !strings.HasPrefix(rel, "..") {
			return strings.TrimSuffix(filepath.ToSlash(rel), ArchiveExt)
		}
	}
	return sel
}
