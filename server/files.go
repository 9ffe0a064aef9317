package server

import (
	"context"
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/marionette-dev/marionette/names"
	"github.com/marionette-dev/marionette/puppetconf"
	"github.com/marionette-dev/marionette/site"
)

// Puppet's file server: the modules, plugins and pluginfacts mounts, for
// file_metadata(s) and file_content. plugins and pluginfacts merge every
// module's lib and facts.d directories into one tree.

// fileMetadata is Puppet's file metadata object.
type fileMetadata struct {
	Path         string   `json:"path"`
	RelativePath *string  `json:"relative_path"`
	Links        string   `json:"links"`
	Owner        uint32   `json:"owner"`
	Group        uint32   `json:"group"`
	Mode         uint32   `json:"mode"`
	Checksum     checksum `json:"checksum"`
	Type         string   `json:"type"`
	Destination  *string  `json:"destination"`
}

type checksum struct {
	Type string `json:"type"`
	// Value is null for a link whose target is missing.
	Value *string `json:"value"`
}

func newChecksum(t, v string) checksum { return checksum{t, &v} }

// module is one module of an environment's module path.
type module struct{ name, dir string }

// environmentModules lists environment name's modules, the first of each
// name along the module path.
func (s *Server) environmentModules(st *site.Site, name string) ([]module, []string, error) {
	var modulePath []string
	if st.Loader().Directories() {
		dir, err := st.Loader().Dir(name)
		if err != nil {
			return nil, nil, err
		}
		conf, err := st.Loader().Settings().ReadEnvironmentConf(dir, name)
		if err != nil {
			return nil, nil, err
		}
		modulePath = conf.ModulePath
	}
	if s.cfg.Environment.ModulePath != nil {
		modulePath = s.cfg.Environment.ModulePath
	}
	var mods []module
	seen := map[string]bool{}
	for _, dir := range modulePath {
		entries, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, e := range entries {
			n := e.Name()
			if seen[n] || !validModuleName(n) {
				continue
			}
			if st, err := os.Stat(filepath.Join(dir, n)); err == nil && st.IsDir() {
				seen[n] = true
				mods = append(mods, module{n, filepath.Join(dir, n)})
			}
		}
	}
	return mods, modulePath, nil
}

func validModuleName(n string) bool {
	if n == "" || n[0] < 'a' || n[0] > 'z' {
		return false
	}
	for i := 0; i < len(n); i++ {
		c := n[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// cleanRelative checks a path inside a mount: relative, no "..".
func cleanRelative(rel string) (string, bool) {
	if rel == "" {
		return "", true
	}
	if strings.HasPrefix(rel, "/") || strings.Contains(rel, "\x00") || strings.Contains(rel, "\\") {
		return "", false
	}
	for _, seg := range strings.Split(rel, "/") {
		if seg == ".." {
			return "", false
		}
	}
	return path.Clean(rel), true
}

// mountRoots are the paths a mount path resolves to, in the order their
// files win: one for modules/<mod>/<path>, a module's lib (plugins) or
// facts.d (pluginfacts) for each module that has one. When no module has
// one, empty is a directory that stands for the mount, as Puppet answers
// with an empty tree rooted at the module path, so that the agent sees the
// environment exists.
func (s *Server) mountRoots(st *site.Site, env, mount, rel string) (roots []string, empty string, err error) {
	mods, modulePath, err := s.environmentModules(st, env)
	if err != nil {
		return nil, "", err
	}
	switch mount {
	case "modules":
		modName, rest, _ := strings.Cut(rel, "/")
		for _, m := range mods {
			if m.name == modName {
				return []string{filepath.Join(m.dir, "files", filepath.FromSlash(rest))}, "", nil
			}
		}
		return nil, "", nil
	case "plugins", "pluginfacts":
		sub := "lib"
		if mount == "pluginfacts" {
			sub = "facts.d"
		}
		var roots []string
		for _, m := range mods {
			dir := filepath.Join(m.dir, sub)
			if st, err := os.Stat(dir); err == nil && st.IsDir() {
				roots = append(roots, filepath.Join(dir, filepath.FromSlash(rel)))
			}
		}
		if len(roots) == 0 && rel == "" {
			for _, dir := range modulePath {
				if st, err := os.Stat(dir); err == nil && st.IsDir() {
					return nil, dir, nil
				}
			}
			return nil, st.Loader().Settings().Get(puppetconf.Codedir), nil
		}
		return roots, "", nil
	}
	for _, m := range s.mounts() {
		if m.Name == mount {
			return []string{filepath.Join(m.Path, filepath.FromSlash(rel))}, "", nil
		}
	}
	return nil, "", nil
}

// knownMount reports whether mount is Puppet's or fileserver.conf's.
func (s *Server) knownMount(mount string) bool {
	switch mount {
	case "modules", "plugins", "pluginfacts":
		return true
	}
	for _, m := range s.mounts() {
		if m.Name == mount {
			return true
		}
	}
	return false
}

// mounts are fileserver.conf's custom mount points.
func (s *Server) mounts() []puppetconf.Mount {
	if m := s.fileMounts.Load(); m != nil {
		return *m
	}
	return nil
}

// fileServer serves file_metadata, file_metadatas and file_content.
func (s *Server) fileServer(w http.ResponseWriter, r *http.Request, kind, key string) error {
	if r.Method != http.MethodGet {
		return methodNotAllowed(r)
	}
	q := r.URL.Query()
	env := q.Get("environment")
	if env == "" {
		return badRequest("An environment parameter must be specified")
	}
	if !names.ValidEnvironment(env) {
		return badRequest("The environment must be purely alphanumeric, not '%s'", env)
	}
	if key == "" {
		return badRequest("No request key specified in %s", r.URL.Path)
	}
	st := s.site.Load()
	if !st.HasEnvironment(env) {
		return notFound(issueRuntime, "Could not find environment '%s'", env)
	}
	mount, rel, _ := strings.Cut(key, "/")
	rel, ok := cleanRelative(rel)
	if !ok {
		return badRequest("Invalid file path '%s'", key)
	}
	if rel == "." {
		rel = ""
	}
	missing := func() error {
		if kind == "file_metadatas" {
			// Puppet names the indirection, file_metadata, in both.
			return notFound(issueResourceNotFound, "Could not find instances in file_metadata with '%s'", key)
		}
		return notFound(issueResourceNotFound, "Could not find %s %s", kind, key)
	}
	roots, empty, err := s.mountRoots(st, env, mount, rel)
	if err != nil {
		return serverError(err.Error())
	}
	if !s.knownMount(mount) {
		// Puppet's file server finds no mount to authorize the request by.
		verb := "find"
		if kind == "file_metadatas" {
			verb = "search"
		}
		return serverError(fmt.Sprintf("Not authorized to call %s on /%s/%s", verb, strings.TrimSuffix(kind, "s"), key))
	}
	follow := q.Get("links") == "follow"
	stat := os.Lstat
	if follow {
		stat = os.Stat
	}
	sumType := "sha256"
	if t := q.Get("checksum_type"); t != "" {
		if newHash(t) == nil && t != "mtime" && t != "ctime" && t != "none" {
			return badRequest("Invalid checksum type '%s'", t)
		}
		sumType = t
	}
	links := "manage"
	if follow {
		links = "follow"
	}
	// Without source_permissions=use Puppet reports the server process's
	// owner and group and mode 0644, not the source's.
	// The walk and the checksums end with the request: when the agent
	// hangs up, or at the server's deadline (--compile-timeout), whichever
	// is first.
	ctx, cancel := context.WithTimeout(r.Context(), s.cfg.CompileTimeout)
	defer cancel()
	mo := metaOptions{ctx: ctx, stat: stat, sumType: sumType, links: links, usePerms: q.Get("source_permissions") == "use"}
	switch kind {
	case "file_content":
		for _, root := range roots {
			st, err := os.Stat(root)
			if err != nil || !st.Mode().IsRegular() {
				continue
			}
			f, err := os.Open(root)
			if err != nil {
				return serverError(err.Error())
			}
			defer f.Close()
			w.Header().Set("Content-Type", "application/octet-stream")
			w.Header().Set("Content-Length", strconv.FormatInt(st.Size(), 10))
			_, _ = io.Copy(w, f)
			return nil
		}
		return missing()
	case "file_metadata":
		// Puppet's plugins and pluginfacts mounts find nothing when no
		// module fills them: the empty tree answers searches alone.
		for _, root := range roots {
			if _, err := os.Stat(root); err != nil {
				continue // a dangling link is no file to serve
			}
			md, err := metadata(root, nil, mo)
			if err == nil {
				writeJSON(w, http.StatusOK, md)
				return nil
			}
		}
		return missing()
	}
	// file_metadatas: the merged trees, first root wins per relative path.
	recurse := truthy(q.Get("recurse")) || q.Get("recurse") == "remote"
	limit := -1
	if v := q.Get("recurselimit"); v != "" {
		if n, err := strconv.Atoi(v); err == nil {
			limit = n
		}
	}
	// max_files: Puppet limits only with a positive number (the agent
	// sends 0 for a file resource without max_files, -1 for pluginsync).
	maxFiles := 0
	if v := q.Get("max_files"); v != "" {
		if n, err := strconv.Atoi(v); err == nil {
			maxFiles = n
		}
	}
	ignore := q["ignore"]
	found := map[string]string{} // relative path → root
	var order []string
	if empty != "" {
		roots, recurse = []string{empty}, false
	}
	for _, root := range roots {
		st, err := stat(root)
		if err != nil {
			continue
		}
		add := func(rel string) {
			if _, dup := found[rel]; !dup {
				found[rel] = root
				order = append(order, rel)
			}
		}
		add(".")
		if !recurse || !st.IsDir() {
			continue
		}
		w := &treeWalk{ctx: ctx, root: root, limit: limit, ignore: ignore, stat: stat, follow: follow, add: add}
		if err := w.walk("", 1, []fileID{idOf(st)}); err != nil {
			return s.walkError(ctx, key, err)
		}
	}
	if len(order) == 0 {
		return missing()
	}
	if maxFiles > 0 && len(order)-1 > maxFiles {
		return serverError(fmt.Sprintf("The directory '%s' contains %d entries, which exceeds the limit of %d specified by the max_files parameter for this resource. The limit may be increased, but be aware that large number of file resources can result in excessive resource consumption and degraded performance. Consider using an alternate method to manage large directory trees",
			found["."], len(order)-1, maxFiles))
	}
	sort.Strings(order[1:])
	out := make([]*fileMetadata, 0, len(order))
	for _, rel := range order {
		if err := ctx.Err(); err != nil {
			return s.walkError(ctx, key, err)
		}
		rel := rel
		full := found[rel]
		if rel != "." {
			full = filepath.Join(full, filepath.FromSlash(rel))
		}
		md, err := metadata(full, &rel, mo)
		if err != nil {
			if follow && errors.Is(err, fs.ErrNotExist) {
				return serverError("No such file or directory - " + full)
			}
			continue
		}
		md.Path = found[rel]
		out = append(out, md)
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

// fileID identifies a directory however it is reached: its device and
// inode.
type fileID struct{ dev, ino uint64 }

func idOf(st os.FileInfo) fileID {
	if sys, ok := st.Sys().(*syscall.Stat_t); ok {
		return fileID{uint64(sys.Dev), uint64(sys.Ino)}
	}
	return fileID{}
}

// errSymlinkLoop is a directory that contains itself through symbolic
// links, where Puppet's file server, following the links, fails when the
// path grows past the system's limit on links in a path (ELOOP).
type errSymlinkLoop struct{ path string }

func (e *errSymlinkLoop) Error() string {
	// puppetserver's message (JRuby's Errno::ELOOP from File.stat; MRI,
	// as in puppet apply, adds "@ rb_file_s_stat").
	return "Too many levels of symbolic links - " + e.path
}

// treeWalk lists the files under a mount root for file_metadatas.
type treeWalk struct {
	ctx    context.Context
	root   string
	limit  int // depth limit, -1 for none
	ignore []string
	stat   func(string) (os.FileInfo, error)
	follow bool
	add    func(string)
}

// walk adds every file under root/rel below the depth limit, skipping
// names an ignore glob matches. ancestors are the directories from the
// root down to rel: a directory among them is a cycle, which the walk
// does not enter again. Following links, Puppet walks the cycle until
// the path holds too many links and fails; the walk fails the same way,
// with the path Puppet stops at, when the depth limit would not have
// stopped Puppet first.
func (w *treeWalk) walk(rel string, depth int, ancestors []fileID) error {
	if w.limit >= 0 && depth > w.limit {
		return nil
	}
	if err := w.ctx.Err(); err != nil {
		return err
	}
	entries, err := os.ReadDir(filepath.Join(w.root, filepath.FromSlash(rel)))
	if err != nil {
		return nil
	}
	for _, e := range entries {
		name := e.Name()
		skip := false
		for _, pat := range w.ignore {
			if ok, _ := path.Match(pat, name); ok {
				skip = true
				break
			}
		}
		if skip {
			continue
		}
		child := path.Join(rel, name)
		w.add(child)
		full := filepath.Join(w.root, filepath.FromSlash(child))
		st, err := w.stat(full)
		if err != nil || !st.IsDir() {
			continue
		}
		if ancestors == nil {
			// Inside a cycle that the depth limit ends: every level is
			// one more round of it, listed as Puppet lists it.
			if err := w.walk(child, depth+1, nil); err != nil {
				return err
			}
			continue
		}
		id := idOf(st)
		if i := slices.Index(ancestors, id); i >= 0 {
			if !w.follow {
				continue // a bind mount's loop: entered once
			}
			// The links from ancestor i back to itself, repeated.
			loop := strings.Split(child, "/")[i:]
			p, d := w.loopEnd(full, depth, loop)
			if p != "" && (w.limit < 0 || d <= w.limit) {
				return &errSymlinkLoop{p}
			}
			if w.limit < 0 {
				continue // no limit, and no failing path: entered once
			}
			if err := w.walk(child, depth+1, nil); err != nil {
				return err
			}
			continue
		}
		if err := w.walk(child, depth+1, append(ancestors, id)); err != nil {
			return err
		}
	}
	return nil
}

// loopEnd is the first path, repeating loop after full, whose stat fails
// as Puppet's does (too many links), and its depth; "" when none does.
func (w *treeWalk) loopEnd(full string, depth int, loop []string) (string, int) {
	p := full
	for range 256 {
		for _, seg := range loop {
			p += string(filepath.Separator) + seg
			depth++
			if _, err := w.stat(p); err != nil {
				if errors.Is(err, syscall.ELOOP) {
					return p, depth
				}
				return "", 0
			}
		}
	}
	return "", 0
}

// walkError answers a file_metadatas walk that failed: Puppet's error
// for a symlink loop, the deadline's, or the client's going away.
func (s *Server) walkError(ctx context.Context, key string, err error) error {
	var loop *errSymlinkLoop
	if errors.As(err, &loop) {
		return serverError(loop.Error())
	}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return serverError(fmt.Sprintf("the file metadata of %s were not listed within %v (--compile-timeout)", key, s.cfg.CompileTimeout))
	}
	return serverError("the request was cancelled")
}

// metaOptions are how metadata describes files: the agent's links,
// checksum_type and source_permissions.
type metaOptions struct {
	ctx      context.Context
	stat     func(string) (os.FileInfo, error)
	sumType  string
	links    string
	usePerms bool
}

// metadata describes one file as Puppet's file server does.
func metadata(full string, rel *string, o metaOptions) (*fileMetadata, error) {
	st, err := o.stat(full)
	if err != nil {
		return nil, err
	}
	sumType, links := o.sumType, o.links
	md := &fileMetadata{Path: full, RelativePath: rel, Links: links, Mode: uint32(st.Mode().Perm())}
	if st.Mode()&os.ModeSetuid != 0 {
		md.Mode |= 0o4000
	}
	if st.Mode()&os.ModeSetgid != 0 {
		md.Mode |= 0o2000
	}
	if st.Mode()&os.ModeSticky != 0 {
		md.Mode |= 0o1000
	}
	var ctime time.Time
	if sys, ok := st.Sys().(*syscall.Stat_t); ok {
		md.Owner, md.Group = sys.Uid, sys.Gid
		ctime = time.Unix(sys.Ctim.Sec, sys.Ctim.Nsec)
	}
	if !o.usePerms {
		md.Owner, md.Group, md.Mode = uint32(os.Geteuid()), uint32(os.Getegid()), 0o644
	}
	rubyTime := func(t time.Time) string { return t.Format("2006-01-02 15:04:05 -0700") }
	switch {
	case st.IsDir():
		md.Type = "directory"
		md.Checksum = newChecksum("ctime", "{ctime}"+rubyTime(ctime))
	case st.Mode()&os.ModeSymlink != 0:
		md.Type = "link"
		dest, err := os.Readlink(full)
		if err == nil {
			md.Destination = &dest
		}
		md.Checksum = checksum{Type: sumType}
		if sum, err := fileChecksum(o.ctx, full, sumType, st, ctime); err == nil {
			md.Checksum.Value = &sum
		}
	case st.Mode().IsRegular():
		md.Type = "file"
		sum, err := fileChecksum(o.ctx, full, sumType, st, ctime)
		if err != nil {
			return nil, err
		}
		md.Checksum = newChecksum(sumType, sum)
	default:
		return nil, os.ErrNotExist
	}
	return md, nil
}

func newHash(t string) hash.Hash {
	switch t {
	case "md5", "md5lite":
		return md5.New()
	case "sha1":
		return sha1.New()
	case "sha224":
		return sha256.New224()
	case "sha256":
		return sha256.New()
	case "sha384":
		return sha512.New384()
	case "sha512":
		return sha512.New()
	}
	return nil
}

// fileChecksum is Puppet's "{type}value" checksum of a file.
func fileChecksum(ctx context.Context, full, t string, st os.FileInfo, ctime time.Time) (string, error) {
	switch t {
	case "mtime":
		return "{mtime}" + st.ModTime().Format("2006-01-02 15:04:05 -0700"), nil
	case "ctime":
		return "{ctime}" + ctime.Format("2006-01-02 15:04:05 -0700"), nil
	case "none":
		return "{none}", nil
	}
	h := newHash(t)
	f, err := os.Open(full)
	if err != nil {
		return "", err
	}
	defer f.Close()
	if t == "md5lite" {
		_, err = io.CopyN(h, f, 512)
		if err == io.EOF {
			err = nil
		}
	} else {
		_, err = io.Copy(h, ctxReader{ctx, f})
	}
	if err != nil {
		return "", err
	}
	return "{" + t + "}" + hex.EncodeToString(h.Sum(nil)), nil
}

// ctxReader stops reading when ctx ends: a big file's checksum is given
// up when the agent hangs up.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}
