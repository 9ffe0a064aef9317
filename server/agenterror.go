package server

import (
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/marionette-dev/marionette/puppetconf"
)

// Errors an agent sees name code (manifests, templates, module files) as
// Puppet's do, but not the server's private directories: an I/O failure
// under the CA, the SSL directory or vardir (a full disk, a certname too
// long for a file name) would otherwise tell anyone who can reach the port
// where the CA keeps its key. Such a path is shown by the setting that
// holds it, as "$cadir/requests/x.pem"; the server's log keeps the error
// as it was.

// privateDirs are the directories whose paths agents are not shown, by
// setting name, longest path first (cadir lies inside ssldir in Puppet's
// old layout). The confdir is not one: Debian's codedir lies inside it, and
// errors name manifests by their paths, as Puppet's do; nor is any other
// directory that holds code.
func (s *Server) privateDirs() [][2]string {
	var dirs, code [][2]string
	add := func(to *[][2]string, setting, dir string) {
		if dir == "" || dir == "/" || !filepath.IsAbs(dir) {
			return
		}
		*to = append(*to, [2]string{setting, filepath.Clean(dir)})
	}
	if st := s.settings.Load(); st != nil {
		add(&dirs, "$cadir", st.Get("cadir"))
		add(&dirs, "$ssldir", st.Get("ssldir"))
		add(&dirs, "$vardir", st.Get(puppetconf.Vardir))
		add(&code, "", st.Get(puppetconf.Codedir))
		for _, d := range st.Path(puppetconf.EnvironmentPath) {
			add(&code, "", d)
		}
		for _, d := range st.Path(puppetconf.BaseModulePath) {
			add(&code, "", d)
		}
	}
	for _, d := range s.cfg.Environment.ModulePath {
		add(&code, "", d)
	}
	if s.cfg.Environment.Manifest != "" {
		add(&code, "", s.cfg.Environment.Manifest)
	}
	if a, ok := s.cfg.CA.(caAdapter); ok {
		add(&dirs, "$cadir", a.c.Dir())
	}
	add(&dirs, "$reportdir", s.reportDir)
	add(&dirs, "$vardir/yaml/facts", s.factsDir)
	dirs = slices.DeleteFunc(dirs, func(d [2]string) bool {
		for _, c := range code {
			if within(c[1], d[1]) {
				return true
			}
		}
		return false
	})
	sort.SliceStable(dirs, func(i, j int) bool { return len(dirs[i][1]) > len(dirs[j][1]) })
	return dirs
}

// within reports whether path is dir or lies below it.
func within(path, dir string) bool {
	return path == dir || strings.HasPrefix(path, dir+string(filepath.Separator))
}

// agentMessage is msg with the server's private directories replaced by
// their settings' names.
func (s *Server) agentMessage(msg string) string {
	for _, d := range s.privateDirs() {
		msg = replacePath(msg, d[1], d[0])
	}
	return msg
}

// replacePath replaces dir where it stands as a whole path or a path's
// leading directories ("/var/lib" in "/var/lib/x", not in "/var/library").
func replacePath(msg, dir, name string) string {
	var b strings.Builder
	for {
		i := strings.Index(msg, dir)
		if i < 0 {
			b.WriteString(msg)
			return b.String()
		}
		end := i + len(dir)
		whole := (end == len(msg) || msg[end] == '/' || !isPathByte(msg[end])) && (i == 0 || !isPathByte(msg[i-1]))
		b.WriteString(msg[:i])
		if whole {
			b.WriteString(name)
		} else {
			b.WriteString(dir)
		}
		msg = msg[end:]
	}
}

func isPathByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("._-/+~@", c) >= 0
}
