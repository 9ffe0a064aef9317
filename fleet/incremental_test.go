package fleet

import (
	"bytes"
	"context"
	"io"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/marionette-dev/marionette/catalogdiff"
	"github.com/marionette-dev/marionette/compiler"
	"github.com/marionette-dev/marionette/environment"
	"github.com/marionette-dev/marionette/puppetconf"
	"github.com/marionette-dev/marionette/value"
)

// incrementalBase is a small environment whose nodes read every kind of
// input a compile has: manifests of three modules (each node uses two),
// templates (ERB and EPP), a file() and a source file, a Puppet and a Ruby
// function, Hiera data on three levels (one missing at first), and
// lookups of a class and a module that do not exist yet.
var incrementalBase = map[string]string{
	"environment.conf": "modulepath = modules\n",
	"manifests/site.pp": `node default {
  include base
  include "${facts['role']}"
  if defined('extras::thing') { include extras::thing }
  if defined('newmod::thing') { include newmod::thing }
}
`,
	"hiera.yaml": `version: 5
hierarchy:
  - name: node
    path: "nodes/%{trusted.certname}.yaml"
  - name: role
    path: "roles/%{facts.role}.yaml"
  - name: common
    path: common.yaml
`,
	"data/common.yaml":       "base::motd: common motd\nwebapp::port: 80\n",
	"data/roles/dbsrv.yaml":  "dbsrv::size: 10\n",
	"data/roles/webapp.yaml": "webapp::port: 8080\n",
	"modules/base/manifests/init.pp": `class base(String $motd) {
  file { '/etc/motd': content => $motd }
  file { '/etc/issue': source => 'puppet:///modules/base/issue' }
}
`,
	"modules/base/files/issue": "Welcome\n",
	"modules/webapp/manifests/init.pp": `class webapp(Integer $port) {
  file { '/etc/web.conf': content => template('webapp/web.conf.erb') }
  file { '/etc/web.epp': content => epp('webapp/web.epp', { 'port' => $port }) }
  file { '/etc/snippet': content => file('webapp/snippet') }
  notify { webapp::greet($facts['role']): }
  notify { webapp::shout('loud'): }
}
`,
	"modules/webapp/templates/web.conf.erb": "port=<%= @port %>\n",
	"modules/webapp/templates/web.epp":      "<%- | $port | -%>\nlisten <%= $port %>\n",
	"modules/webapp/files/snippet":          "snippet\n",
	"modules/webapp/functions/greet.pp":     "function webapp::greet(String $r) >> String { \"hello ${r}\" }\n",
	"modules/webapp/lib/puppet/functions/webapp/shout.rb": `Puppet::Functions.create_function(:'webapp::shout') do
  dispatch :shout do
    param 'String', :s
  end
  def shout(s)
    s.upcase
  end
end
`,
	"modules/dbsrv/manifests/init.pp": `class dbsrv(Integer $size) {
  file { '/etc/db.conf': content => "size=${size}\n" }
}
`,
	"modules/extras/README": "an empty module\n",
}

var incrementalFacts = map[string]map[string]string{
	"web1": {"role": "webapp"},
	"web2": {"role": "webapp"},
	"db1":  {"role": "dbsrv"},
}

// writeTree writes files (path relative to dir => contents) into dir.
func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// incrementalRun diffs the nodes between the environment directories from
// and to, with Puppet's confdir conf (its settings are the code's
// $settings: runs that are to share a cache share it) and the cache in
// cacheDir ("" for none), and returns the
// report as JSON with the cache's counts.
func incrementalRun(t *testing.T, conf, from, to, cacheDir string, facts map[string]map[string]string) (string, *CacheStats) {
	t.Helper()
	s, err := puppetconf.Load(puppetconf.Options{Root: true, Flags: map[string]string{
		"confdir": conf, "codedir": conf, "vardir": conf,
	}})
	if err != nil {
		t.Fatal(err)
	}
	l := environment.New(s, environment.Options{})
	d := &Diff{Log: io.Discard, Options: catalogdiff.Options{IgnoreFileLine: true}}
	for i, dir := range [2]string{from, to} {
		side, err := NewDiffSide(l, SideName(i), dir, "production")
		if err != nil {
			t.Fatal(err)
		}
		d.Sides[i] = side
	}
	if cacheDir != "" {
		if d.Cache, err = OpenReadCache(cacheDir); err != nil {
			t.Fatal(err)
		}
	}
	d.Request = func(ctx context.Context, n Node) (*compiler.Request, error) {
		b := value.NewHashBuilder(4)
		b.Set(value.String("clientcert"), value.String(n.Name))
		for k, v := range facts[n.Name] {
			b.Set(value.String(k), value.String(v))
		}
		return &compiler.Request{Node: n.Name, Facts: b.Build()}, nil
	}
	var nodes []Node
	for name := range facts {
		nodes = append(nodes, Node{Name: name})
	}
	rep := d.Run(context.Background(), 2, nodes, &Reporter{W: io.Discard})
	var buf bytes.Buffer
	if err := rep.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.String(), &d.CacheStats
}

// TestIncrementalEqualsFull changes each kind of input a compile reads
// and checks that a diff reusing the catalogs cached by an earlier run
// reports what a diff compiling every node reports, compiling again only
// the nodes the change can concern.
func TestIncrementalEqualsFull(t *testing.T) {
	tests := []struct {
		name   string
		change map[string]string // files written over the base ("" removes)
		facts  map[string]map[string]string
		// recompiled is how many "to" compiles the incremental run makes
		// (-1: not checked); changed whether the full diff has changes.
		recompiled int
		changed    bool
	}{
		{name: "a manifest", change: map[string]string{"modules/dbsrv/manifests/init.pp": "class dbsrv(Integer $size) {\n  file { '/etc/db.conf': content => \"size=${size}\\nx\\n\" }\n}\n"}, recompiled: 1, changed: true},
		{name: "an ERB template", change: map[string]string{"modules/webapp/templates/web.conf.erb": "port = <%= @port %>\n"}, recompiled: 2, changed: true},
		{name: "an EPP template", change: map[string]string{"modules/webapp/templates/web.epp": "<%- | $port | -%>\nlisten *:<%= $port %>\n"}, recompiled: 2, changed: true},
		{name: "a file() file", change: map[string]string{"modules/webapp/files/snippet": "snippet 2\n"}, recompiled: 2, changed: true},
		{name: "a source file", change: map[string]string{"modules/base/files/issue": "Welcome back\n"}, recompiled: 3, changed: true},
		{name: "a Puppet function", change: map[string]string{"modules/webapp/functions/greet.pp": "function webapp::greet(String $r) >> String { \"hi ${r}\" }\n"}, recompiled: 2, changed: true},
		{name: "a Ruby function", change: map[string]string{"modules/webapp/lib/puppet/functions/webapp/shout.rb": "Puppet::Functions.create_function(:'webapp::shout') do\n  dispatch :shout do\n    param 'String', :s\n  end\n  def shout(s)\n    s.upcase + '!'\n  end\nend\n"}, recompiled: -1, changed: true},
		{name: "Hiera data", change: map[string]string{"data/roles/dbsrv.yaml": "dbsrv::size: 20\n"}, recompiled: 1, changed: true},
		{name: "hiera.yaml", change: map[string]string{"hiera.yaml": "version: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n"}, recompiled: 3, changed: true},
		{name: "a new Hiera level file", change: map[string]string{"data/nodes/web1.yaml": "webapp::port: 9090\n"}, recompiled: 1, changed: true},
		{name: "a new class file", change: map[string]string{"modules/extras/manifests/thing.pp": "class extras::thing { notify { 'extra': } }\n"}, recompiled: 3, changed: true},
		{name: "a new module", change: map[string]string{"modules/newmod/manifests/thing.pp": "class newmod::thing { notify { 'new': } }\n"}, recompiled: 3, changed: true},
		{name: "the main manifest", change: map[string]string{"manifests/site.pp": "node default { include base }\n"}, recompiled: 3, changed: true},
		// New facts are both sides' facts: web2 is compiled once for both.
		{name: "the facts", facts: map[string]map[string]string{"web1": {"role": "webapp"}, "web2": {"role": "dbsrv"}, "db1": {"role": "dbsrv"}}, recompiled: 1, changed: false},
		// Facts no compile reads (volatile ones, as agents send them)
		// change, appear and disappear: every catalog is reused.
		{name: "facts nothing reads", facts: map[string]map[string]string{"web1": {"role": "webapp", "uptime": "5 days"}, "web2": {"role": "webapp", "uptime": "1 day"}, "db1": {"role": "dbsrv", "memoryfree": "1 GiB"}}, recompiled: 0, changed: false},
		{name: "a file nothing reads", change: map[string]string{"README.md": "docs\n"}, recompiled: 0, changed: false},
		{name: "an unused module's file", change: map[string]string{"modules/dbsrv/files/unused": "x\n"}, recompiled: 1, changed: false},
	}
	base, conf := t.TempDir(), t.TempDir()
	writeTree(t, base, incrementalBase)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			to := t.TempDir()
			files := maps.Clone(incrementalBase)
			maps.Copy(files, tt.change)
			writeTree(t, to, files)
			facts := incrementalFacts
			if tt.facts != nil {
				facts = tt.facts
			}
			full, _ := incrementalRun(t, conf, base, to, "", facts)
			cache := t.TempDir()
			// The cache is filled by a run that changes nothing (as on the
			// main branch), with the old facts.
			if _, stats := incrementalRun(t, conf, base, base, cache, incrementalFacts); stats.Compiled.Load() != 3 || stats.Reused.Load() != 3 || stats.Untracked.Load() != 0 {
				t.Fatalf("filling the cache: %d compiles, %d reused, %d untracked; want 3, 3, 0", stats.Compiled.Load(), stats.Reused.Load(), stats.Untracked.Load())
			}
			incr, stats := incrementalRun(t, conf, base, to, cache, facts)
			if incr != full {
				t.Fatalf("the incremental report differs from the full one\nincremental:\n%s\nfull:\n%s", incr, full)
			}
			if hasChanges := bytes.Contains([]byte(full), []byte(`"status": "changed"`)); hasChanges != tt.changed {
				t.Errorf("full report has changes = %v, want %v:\n%s", hasChanges, tt.changed, full)
			}
			if tt.recompiled >= 0 && stats.Compiled.Load() != int64(tt.recompiled) {
				t.Errorf("the incremental run compiled %d times, want %d", stats.Compiled.Load(), tt.recompiled)
			}
		})
	}
}

// TestIncrementalUntracked checks that a compile that reads what the
// record cannot follow (a command's output, a file by absolute path, the
// time of day) is never taken from the cache.
func TestIncrementalUntracked(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "outside.txt")
	writeTree(t, filepath.Dir(outside), map[string]string{"outside.txt": "one\n"})
	for name, site := range map[string]string{
		"generate()":       "node default { notify { generate('/bin/echo', 'hi'): } }\n",
		"an absolute file": "node default { notify { file('" + outside + "'): } }\n",
		"the time of day":  "node default { notify { String(Timestamp()): } }\n",
		"a random draw":    "node default { notify { inline_template('<%= rand(1000) %>'): } }\n",
	} {
		t.Run(name, func(t *testing.T) {
			env, conf, cache := t.TempDir(), t.TempDir(), t.TempDir()
			writeTree(t, env, map[string]string{"manifests/site.pp": site})
			facts := map[string]map[string]string{"n1": {}}
			for run := range 2 {
				rep, stats := incrementalRun(t, conf, env, env, cache, facts)
				// Two compiles at two times differ with the time of day.
				if bytes.Contains([]byte(rep), []byte(`"status": "failed"`)) {
					t.Fatalf("run %d: %s", run, rep)
				}
				if stats.Compiled.Load() != 2 || stats.Untracked.Load() != 2 || stats.Reused.Load() != 0 {
					t.Errorf("run %d: %d compiles, %d untracked, %d reused; want 2, 2, 0", run, stats.Compiled.Load(), stats.Untracked.Load(), stats.Reused.Load())
				}
			}
		})
	}
}

// TestReadCacheDamaged checks that a cache whose index is not one is
// refused, and that an index cannot name a catalog outside the cache.
func TestReadCacheDamaged(t *testing.T) {
	for name, index := range map[string]string{
		"not JSON":            "{",
		"a path as a catalog": `{"version":2,"reads":[],"roots":[[]],"nodes":{"n1":[{"request":"r","reads":[],"catalog":"../../etc/passwd","roots":0}]}}`,
		"a read out of range": `{"version":2,"reads":[],"roots":[[]],"nodes":{"n1":[{"request":"r","reads":[3],"catalog":"` + strings.Repeat("a", 64) + `","roots":0}]}}`,
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			writeTree(t, dir, map[string]string{"index.json": index})
			if _, err := OpenReadCache(dir); err == nil {
				t.Error("no error")
			}
		})
	}
	// An index of another version is ignored: the cache starts afresh.
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"index.json": `{"version":0,"nodes":{"n1":[{"catalog":"x"}]}}`})
	c, err := OpenReadCache(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.nodes) != 0 {
		t.Errorf("entries of another version were read: %v", c.nodes)
	}
}

// TestIncrementalLostCatalog checks that a cached catalog that is gone
// (another run sharing the directory removed it) is compiled again, not a
// failure.
func TestIncrementalLostCatalog(t *testing.T) {
	from, to, conf, cache := t.TempDir(), t.TempDir(), t.TempDir(), t.TempDir()
	writeTree(t, from, incrementalBase)
	changed := maps.Clone(incrementalBase)
	changed["modules/dbsrv/manifests/init.pp"] = "class dbsrv(Integer $size) {\n  file { '/etc/db.conf': content => \"size=${size}\\nx\\n\" }\n}\n"
	writeTree(t, to, changed)
	want, _ := incrementalRun(t, conf, from, to, "", incrementalFacts)
	incrementalRun(t, conf, from, from, cache, incrementalFacts)
	if err := os.RemoveAll(filepath.Join(cache, "catalogs")); err != nil {
		t.Fatal(err)
	}
	got, stats := incrementalRun(t, conf, from, to, cache, incrementalFacts)
	if got != want {
		t.Errorf("with the catalogs gone the report differs:\n%s\n---\n%s", got, want)
	}
	// db1's "to" compile, and its "from" one again.
	if stats.Compiled.Load() != 2 {
		t.Errorf("%d compiles, want 2", stats.Compiled.Load())
	}
	// The entries whose catalogs were gone are dropped: the next run
	// compiles them (and keeps them), and does not warn again.
	if _, stats := incrementalRun(t, conf, from, to, cache, incrementalFacts); stats.Compiled.Load() != 1 {
		t.Errorf("the run after: %d compiles, want 1 (the from side of db1)", stats.Compiled.Load())
	}
	if _, stats := incrementalRun(t, conf, from, to, cache, incrementalFacts); stats.Compiled.Load() != 0 {
		t.Errorf("the second run after: %d compiles, want 0", stats.Compiled.Load())
	}
}
