package fleet

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"
	"sync"

	"github.com/marionette-dev/marionette/atomicfile"
	"github.com/marionette-dev/marionette/catalogdiff"
	"github.com/marionette-dev/marionette/compiler"
	"github.com/marionette-dev/marionette/environment"
)

// Diff compiles every node twice, with the code of the two sides, from
// the same request (facts, the classifier's classes and parameters), and
// compares the catalogs: `marionette diff --all-nodes`.
type Diff struct {
	// Sides are the old and the new code ("from" and "to").
	Sides [2]*DiffSide
	// Options say what the comparison ignores.
	Options catalogdiff.Options
	// Request is node n's compile request, or the failure before either
	// compile (facts, the classifier).
	Request func(ctx context.Context, n Node) (*compiler.Request, error)
	// Log receives the compiles' warnings, from many goroutines at once
	// (it serialises its writes).
	Log io.Writer
	// CatalogsDir, when set, keeps every compiled catalog, as
	// `marionette compile` writes it: CatalogsDir/from/NODE.json and
	// CatalogsDir/to/NODE.json.
	CatalogsDir string
	// Cache, when set, keeps catalogs with what their compiles read: a
	// side whose reads for a node have not changed since a compile is not
	// compiled again (see ReadCache). Run saves it.
	Cache *ReadCache
	// CacheStats count the compiles made and saved with Cache.
	CacheStats CacheStats
}

// SideName labels the two compiles of a node: "from" (i 0) or "to" (i 1).
func SideName(i int) string {
	if i == 0 {
		return "from"
	}
	return "to"
}

// Run compares nodes, jobs at a time (0: the number of CPUs), reporting
// progress; the report lists the nodes by name.
func (d *Diff) Run(ctx context.Context, jobs int, nodes []Node, progress *Reporter) *DiffReport {
	results := make([]NodeDiff, len(nodes))
	index := make(map[string]int, len(nodes))
	for i, n := range nodes {
		index[n.Name] = i
		results[i].Node = n.Name
	}
	compareOne := func(ctx context.Context, n Node) error {
		// Each node is compared once, by one goroutine, into its own slot.
		r := &results[index[n.Name]]
		req, err := d.Request(ctx, n)
		if err != nil {
			r.Err = err
			return err
		}
		var cats [2]*catalogdiff.Catalog
		var cached [2]sideCatalog
		for i, s := range d.Sides {
			var keep string
			if d.CatalogsDir != "" {
				keep = filepath.Join(d.CatalogsDir, SideName(i), n.Name+".json")
			}
			if d.Cache != nil {
				cached[i], r.SideErr[i] = s.compileCached(ctx, req, d.Log, keep, d.Cache, &d.CacheStats)
			} else {
				cats[i], r.SideErr[i] = s.compileKeeping(ctx, req, d.Log, keep)
			}
		}
		if r.SideErr[0] != nil || r.SideErr[1] != nil {
			return r.failure(d.Sides)
		}
		if d.Cache != nil {
			if cached[0].entry != nil && cached[0].entry == cached[1].entry {
				// One compile stands for both sides: everything it read,
				// the files its sources name included, is the same on both.
				r.Diff = sameCatalogs(d.Options)
				return nil
			}
			for i, s := range d.Sides {
				var err error
				if cats[i], err = s.load(cached[i], d.Cache); err != nil {
					// The cached catalog is gone or damaged (another run
					// sharing the directory removed it): compile it again.
					fmt.Fprintf(d.Log, "Warning: %v (node %s, %s %s): compiling it again\n", err, n.Name, s.name, s.label)
					d.Cache.forget(n.Name, cached[i].entry)
					d.CacheStats.Compiled.Add(1)
					cats[i], r.SideErr[i] = s.compileKeeping(ctx, req, d.Log, "")
				}
			}
			if r.SideErr[0] != nil || r.SideErr[1] != nil {
				return r.failure(d.Sides)
			}
		}
		r.Diff = catalogdiff.Compare(cats[0], cats[1], d.Options)
		return nil
	}
	sum := Compile(ctx, jobs, nodes, compareOne, progress)
	for i, fr := range sum.Results {
		r := &results[i]
		switch {
		case fr.Skipped:
			r.Skipped = true
		case fr.Err != nil && r.Err == nil && r.SideErr[0] == nil && r.SideErr[1] == nil:
			// A panic outside the two compiles (they recover their own).
			r.Err = fr.Err
		}
	}
	sort.Slice(results, func(i, j int) bool { return results[i].Node < results[j].Node })
	if d.Cache != nil {
		if err := d.Cache.Save(); err != nil {
			fmt.Fprintf(d.Log, "Warning: the diff cache was not saved: %v\n", err)
		}
	}
	return &DiffReport{From: d.Sides[0].label, To: d.Sides[1].label, Nodes: results}
}

// DiffSide is one environment of a diff --all-nodes run, loaded once.
type DiffSide struct {
	name  string // "from" or "to"
	label string // the environment as given on the command line
	// envDir is the environment directory and roots the directories that
	// resource file names are made relative to, longest first.
	envDir string
	roots  []string
	env    *compiler.Environment
	// Adjust, when set, changes this side's copy of each request: the
	// strictness and catalog format of another Puppet major
	// (--to-puppet 8).
	Adjust func(*compiler.Request)
	// gitRef is the git ref the side's code was extracted from ("" for
	// an environment or a directory), and remove deletes that directory.
	gitRef string
	remove func()
	// sources holds the module files sources name, by MODULE/FILE
	// (moduleFile): every node of a fleet reads the same few.
	sources sync.Map
	// inc is what a diff with a cache computes once for the side.
	inc incremental
}

// NewGitDiffSide loads the environment at commit ref of the git
// repository repo (a control repository: its root is the environment),
// extracted into a temporary directory that Close removes. envName names
// the environment (the directory's name is a temporary one).
func NewGitDiffSide(ctx context.Context, l *environment.Loader, name, repo, ref, envName string) (*DiffSide, error) {
	dir, remove, err := ExtractGitRef(ctx, repo, ref)
	if err != nil {
		return nil, err
	}
	if envName == "" {
		envName = "production"
	}
	s, err := NewDiffSide(l, name, dir, envName)
	if err != nil {
		remove()
		return nil, err
	}
	s.label, s.gitRef, s.remove = ref, ref, remove
	return s, nil
}

// Label is how reports name the side.
func (s *DiffSide) Label() string { return s.label }

// gitPaths names the files of a git ref's side in a message as git does,
// REF:PATH, instead of by the temporary directory they were extracted to.
func (s *DiffSide) gitPaths(msg string) string {
	if s.gitRef == "" {
		return msg
	}
	return strings.ReplaceAll(msg, s.envDir+string(filepath.Separator), s.gitRef+":")
}

// SetLabel changes how reports name the side (default: the spec it was
// made from).
func (s *DiffSide) SetLabel(label string) { s.label = label }

// Close removes what the side extracted (a git ref's tree).
func (s *DiffSide) Close() {
	if s.remove != nil {
		s.remove()
		s.remove = nil
	}
}

// NewDiffSide loads the environment spec names: a directory environment
// on the environmentpath, or, when spec holds a path separator, the
// directory spec itself. envName, when set, replaces the environment's name.
// The environment's own environment.conf gives the manifest and module path.
func NewDiffSide(l *environment.Loader, name, spec, envName string) (*DiffSide, error) {
	var dir string
	if strings.ContainsRune(spec, '/') || strings.ContainsRune(spec, filepath.Separator) || spec == "." || spec == ".." {
		abs, err := filepath.Abs(spec)
		if err != nil {
			return nil, err
		}
		if st, err := os.Stat(abs); err != nil || !st.IsDir() {
			return nil, fmt.Errorf("no environment directory %s", abs)
		}
		dir = abs
	} else {
		if !l.Directories() {
			return nil, fmt.Errorf("an environment name needs --environmentpath (or give a directory, such as ./%s)", spec)
		}
		var err error
		if dir, err = l.Dir(spec); err != nil {
			return nil, err
		}
	}
	if envName == "" {
		envName = filepath.Base(dir)
	}
	env, err := l.GetDir(context.Background(), dir, envName)
	if err != nil {
		return nil, err
	}
	s := &DiffSide{name: name, label: spec, envDir: dir, env: env}
	s.roots = append(s.roots, dir)
	for _, mp := range env.ModulePath {
		if !strings.HasPrefix(mp, dir+string(filepath.Separator)) {
			s.roots = append(s.roots, mp)
		}
	}
	sort.Slice(s.roots, func(i, j int) bool { return len(s.roots[i]) > len(s.roots[j]) })
	return s, nil
}

// compile compiles one node's catalog on this side and converts it as
// catalogdiff reads a catalog file, with resource file names made relative
// to the environment so that the two sides' files compare. A panic is
// turned into the error of this side.
func (s *DiffSide) Compile(ctx context.Context, req *compiler.Request, logw io.Writer) (cat *catalogdiff.Catalog, err error) {
	return s.compileKeeping(ctx, req, logw, "")
}

// compileKeeping is Compile that also writes the compiled catalog's JSON
// to keep, when set.
func (s *DiffSide) compileKeeping(ctx context.Context, req *compiler.Request, logw io.Writer, keep string) (cat *catalogdiff.Catalog, err error) {
	own := *req
	if s.Adjust != nil {
		s.Adjust(&own)
	}
	cat, _, err = s.compileOwn(ctx, &own, logw, keep)
	return cat, err
}

// compileOwn compiles own, this side's copy of a node's request. When own
// records its reads, the catalog's JSON is returned too (for the cache),
// and the files the sources name are recorded with the compile's reads.
// A panic is turned into the error of this side.
func (s *DiffSide) compileOwn(ctx context.Context, own *compiler.Request, logw io.Writer, keep string) (cat *catalogdiff.Catalog, catalogJSON []byte, err error) {
	defer func() {
		if p := recover(); p != nil {
			cat, catalogJSON, err = nil, nil, fmt.Errorf("internal error: panic: %v\n%s", p, debug.Stack())
		}
	}()
	node := own.Node
	res, err := compiler.Compile(ctx, s.env, own)
	for _, d := range res.Diagnostics {
		fmt.Fprintf(logw, "%s: %s (node %s, %s %s)\n", d.Severity.Label(), s.gitPaths(d.Error()), node, s.name, s.label)
	}
	if err != nil {
		if msg := s.gitPaths(err.Error()); msg != err.Error() {
			return nil, nil, errors.New(msg)
		}
		return nil, nil, err
	}
	c := res.Catalog
	if c.RichData || keep != "" || own.Reads != nil {
		var buf bytes.Buffer
		if err := c.WriteJSON(&buf); err != nil {
			return nil, nil, err
		}
		catalogJSON = buf.Bytes()
	}
	if keep != "" {
		if err := keepCatalog(keep, catalogJSON); err != nil {
			return nil, nil, err
		}
	}
	// As catalogdiff.Parse would read c's JSON, without the JSON; a
	// catalog with rich data (Puppet 8) writes some values in a form of
	// its own, so it goes through its JSON.
	if c.RichData {
		cat, err = catalogdiff.Parse(catalogJSON)
	} else {
		cat, err = catalogdiff.FromCatalog(c)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("internal error: reading the compiled catalog: %v", err)
	}
	for _, r := range cat.Resources {
		r.File = relativeTo(s.roots, r.File)
	}
	s.addSourceContent(cat, own.Reads)
	return cat, catalogJSON, nil
}

// keepCatalog writes a catalog's JSON to keep (--catalogs-dir).
func keepCatalog(keep string, catalogJSON []byte) error {
	if err := os.MkdirAll(filepath.Dir(keep), 0o755); err != nil {
		return err
	}
	return atomicfile.Write(keep, 0o644, atomicfile.Bytes(catalogJSON))
}

// sameCatalogs is the comparison of a catalog with itself.
func sameCatalogs(opts catalogdiff.Options) *catalogdiff.Result {
	return catalogdiff.Compare(&catalogdiff.Catalog{}, &catalogdiff.Catalog{}, opts)
}

// relativeTo makes a resource's file name relative to the environment (or
// to the module directory outside it that holds it): roots are the
// environment directory and the module path's directories outside it,
// longest first.
func relativeTo(roots []string, file string) string {
	for _, root := range roots {
		if rest, ok := strings.CutPrefix(file, root+string(filepath.Separator)); ok {
			return filepath.ToSlash(rest)
		}
	}
	return file
}

// NodeDiff is the outcome of one node.
type NodeDiff struct {
	Node string
	// Err is a failure before either compile (facts, ENC).
	Err error
	// SideErr are the failures of the from and to compiles.
	SideErr [2]error
	// Diff is set when both sides compiled.
	Diff *catalogdiff.Result
	// Skipped is set when the run was interrupted before the node started.
	Skipped bool
}

// failure summarises a failed node as one error, for the progress count.
func (r *NodeDiff) failure(sides [2]*DiffSide) error {
	var parts []string
	for i, err := range r.SideErr {
		if err != nil {
			parts = append(parts, fmt.Sprintf("%s %s: %v", sides[i].name, sides[i].label, err))
		}
	}
	return fmt.Errorf("%s", strings.Join(parts, "; "))
}

// status is "changed", "unchanged", "failed" or "skipped".
func (r *NodeDiff) Status() string {
	switch {
	case r.Skipped:
		return "skipped"
	case r.Err != nil || r.SideErr[0] != nil || r.SideErr[1] != nil || r.Diff == nil:
		return "failed"
	case r.Diff.Empty():
		return "unchanged"
	}
	return "changed"
}

// DiffReport is the outcome of a diff run, nodes sorted by name.
type DiffReport struct {
	From, To string
	Nodes    []NodeDiff
}

// DiffCounts counts the nodes by status.
type DiffCounts struct {
	Nodes     int `json:"nodes"`
	Changed   int `json:"changed"`
	Unchanged int `json:"unchanged"`
	Failed    int `json:"failed"`
	Skipped   int `json:"skipped"`
}

func (rep *DiffReport) Counts() DiffCounts {
	c := DiffCounts{Nodes: len(rep.Nodes)}
	for i := range rep.Nodes {
		switch rep.Nodes[i].Status() {
		case "changed":
			c.Changed++
		case "unchanged":
			c.Unchanged++
		case "failed":
			c.Failed++
		case "skipped":
			c.Skipped++
		}
	}
	return c
}

// String is the counts of the summary line.
func (c DiffCounts) String() string {
	s := fmt.Sprintf("%d changed, %d unchanged, %d failed", c.Changed, c.Unchanged, c.Failed)
	if c.Skipped > 0 {
		s += fmt.Sprintf(", %d not compared (interrupted)", c.Skipped)
	}
	return s
}

// nodeErrors lists a node's failures as (side, environment, message); side
// "both" is a failure before either compile.
func (rep *DiffReport) nodeErrors(r *NodeDiff) []DiffError {
	var out []DiffError
	if r.Err != nil {
		out = append(out, DiffError{Side: "both", Error: r.Err.Error()})
	}
	for i, err := range r.SideErr {
		if err != nil {
			env := rep.From
			if i == 1 {
				env = rep.To
			}
			out = append(out, DiffError{Side: SideName(i), Environment: env, Error: err.Error()})
		}
	}
	return out
}

// DiffError is one failure of a node.
type DiffError struct {
	Side        string `json:"side"`
	Environment string `json:"environment,omitempty"`
	Error       string `json:"error"`
}
