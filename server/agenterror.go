package server

import (
	"path/filepath"
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
// old layout, ssldir inside confdir).
func (s *Server) privateDirs() [][2]string {
	var dirs [][2]string
	add := func(setting, dir string) {
		if dir == "" || dir == "/" || !filepath.IsAbs(dir) {
			return
		}
		dirs = append(dirs, [2]string{setting, filepath.Clean(dir)})
	}
	if st := s.settings.Load(); st != nil {
		add("$cadir", st.Get("cadir"))
		add("$ssldir", st.Get("ssldir"))
		add("$vardir", st.Get(puppetconf.Vardir))
		add("$confdir", st.Get(puppetconf.Confdir))
	}
	if a, ok := s.cfg.CA.(caAdapter); ok {
		add("$cadir", a.c.Dir())
	}
	add("$reportdir", s.reportDir)
	add("$vardir/yaml/facts", s.factsDir)
	sort.SliceStable(dirs, func(i, j int) bool { return len(dirs[i][1]) > len(dirs[j][1]) })
	return dirs
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
