package compiler

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/marionette-dev/marionette/environment"
	"github.com/marionette-dev/marionette/value"
)

// TestRubyModuleFiles: Ruby functions see the files of the environment's
// modules through File.exist?, File.file?, File.directory? and File.read
// (extlib's has_module), and nothing outside them, a symlink leading out
// of a module included.
func TestRubyModuleFiles(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"site.pp":                     "",
		"modules/mymod/metadata.json": `{"name": "me-mymod"}`,
		"modules/mymod/lib/puppet/functions/mymod/peek.rb": "require 'json'\n" +
			"Puppet::Functions.create_function(:'mymod::peek') do\n" +
			"  def peek(m)\n" +
			"    meta = File.join(m, 'metadata.json')\n" +
			"    missing = File.exist?(File.join(m, 'nope')) ? 'yes' : 'no'\n" +
			"    read = begin; File.read(File.join(m, 'nope')); rescue Errno::ENOENT => e; e.message.sub(m, 'M'); end\n" +
			"    [File.exist?(meta), File.file?(meta), File.directory?(m), JSON.parse(File.read(meta))['name'], missing, read].join(' ')\n" +
			"  end\nend\n",
		"secret/metadata.json": `{"name": "secret"}`,
	})
	if err := os.Symlink(filepath.Join(dir, "secret"), filepath.Join(dir, "modules", "mymod", "outside")); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ title, want string }{
		{"in", "true true true me-mymod no No such file or directory @ rb_sysopen - M/nope"},
		{"out", "File.exist? of " + filepath.Join(dir, "nope") + ", outside the modules"},
		{"up", "outside the modules"},
		{"link", "outside the modules"},
	} {
		site := "$m = \"" + filepath.Join(dir, "modules", "mymod") + "\"\n"
		switch c.title {
		case "in":
			site += "notify { 'in': message => mymod::peek($m) }\n"
		case "out":
			site += "notify { 'out': message => mymod::peek('" + dir + "') }\n"
		case "up":
			site += "notify { 'up': message => mymod::peek(\"${m}/../..\") }\n"
		case "link":
			site += "notify { 'link': message => mymod::peek(\"${m}/outside\") }\n"
		}
		if err := os.WriteFile(filepath.Join(dir, "site.pp"), []byte(site), 0o644); err != nil {
			t.Fatal(err)
		}
		env, err := environment.Load(environment.Config{Name: "production", Manifest: filepath.Join(dir, "site.pp"), ModulePath: []string{filepath.Join(dir, "modules")}})
		if err != nil {
			t.Fatal(err)
		}
		cat, err := compileCatalog(env, &Request{Node: "n1.example.com"})
		if c.title == "in" {
			if err != nil {
				t.Fatal(err)
			}
			v, _ := cat.Lookup(refOf("Notify", "in")).Param("message")
			if v != value.String(c.want) {
				t.Errorf("in: got %v, want %q", v, c.want)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error containing %q", c.title, err, c.want)
		}
	}
}
