package stdlib

import (
	"os"
	"path"
	"sort"
	"strings"

	"github.com/marionette-dev/marionette/functions"
	"github.com/marionette-dev/marionette/value"
)

func addFiles(t functions.Table) {
	t["glob"] = legacy(glob)
	t["pry"] = legacyStatement(pry)
}

// pry is the 3.x pry(): Puppet requires the pry gem first, which a compile
// server lacks, so the call fails as Puppet's does there.
func pry(c *functions.Ctx, args []value.Value) (value.Value, error) {
	return nil, errorf("pry(): Requires the 'pry' rubygem to use, but it was not found")
}

// glob is the 3.x glob(pattern or patterns): Ruby's Dir.glob on the
// compiling machine. Like Ruby (and unlike Go's filepath.Glob) it expands
// {a,b} first, lets a "**" segment match any depth of directories, does
// not match names starting with "." with a wildcard, and sorts each
// directory's matches; a pattern that cannot match gives nothing.
func glob(c *functions.Ctx, args []value.Value) (value.Value, error) {
	if len(args) != 1 {
		return nil, errorf("glob(): Wrong number of arguments given (%d for 1)", len(args))
	}
	functions.NoteUntracked(c, "glob()")
	var patterns []string
	switch p := args[0].(type) {
	case value.String:
		patterns = []string{string(p)}
	case value.Array:
		for _, e := range p {
			s, ok := e.(value.String)
			if !ok {
				return nil, errorf("no implicit conversion of %s into String", value.RubyClass(e))
			}
			patterns = append(patterns, string(s))
		}
	default:
		return nil, errorf("glob(): Requires either array or string to work")
	}
	out := value.Array{}
	for _, p := range patterns {
		for _, q := range expandBraces(p, 0) {
			for _, m := range globOne(q) {
				out = append(out, value.String(m))
			}
		}
	}
	return out, nil
}

// expandBraces expands the first {a,b,...} of p (nested ones included),
// recursively, in order; p without braces is itself.
func expandBraces(p string, depth int) []string {
	open := strings.IndexByte(p, '{')
	if open < 0 || depth > 16 {
		return []string{p}
	}
	level, start := 0, open+1
	var alts []string
	for i := open; i < len(p); i++ {
		switch p[i] {
		case '\\':
			i++
		case '{':
			level++
		case '}':
			level--
			if level == 0 {
				alts = append(alts, p[start:i])
				var out []string
				for _, a := range alts {
					out = append(out, expandBraces(p[:open]+a+p[i+1:], depth+1)...)
				}
				return out
			}
		case ',':
			if level == 1 {
				alts = append(alts, p[start:i])
				start = i + 1
			}
		}
	}
	return []string{p} // unbalanced: Ruby takes the brace literally
}

// globOne matches one brace-free pattern.
func globOne(pattern string) []string {
	if pattern == "" {
		return nil
	}
	segs := strings.Split(pattern, "/")
	base := ""
	if segs[0] == "" { // absolute
		base, segs = "/", segs[1:]
	}
	var out []string
	globWalk(base, segs, &out, 0)
	return out
}

// globWalk appends the matches of segs below dir ("" is the current
// directory, matches relative).
func globWalk(dir string, segs []string, out *[]string, depth int) {
	if depth > 64 {
		return
	}
	if len(segs) == 0 {
		if _, err := os.Lstat(orDot(dir)); err == nil {
			*out = append(*out, dir)
		}
		return
	}
	seg, rest := segs[0], segs[1:]
	switch {
	case seg == "":
		// A trailing or doubled slash: a directory, the slash kept.
		if len(rest) == 0 {
			if st, err := os.Stat(orDot(dir)); err == nil && st.IsDir() && dir != "" {
				*out = append(*out, strings.TrimSuffix(dir, "/")+"/")
			}
			return
		}
		globWalk(dir, rest, out, depth+1)
	case seg == "**" && len(rest) > 0:
		globWalk(dir, rest, out, depth+1)
		for _, name := range globList(dir, "*") {
			sub := globJoin(dir, name)
			if st, err := os.Lstat(sub); err == nil && st.IsDir() {
				globWalk(sub, segs, out, depth+1)
			}
		}
	case !strings.ContainsAny(seg, `*?[\`):
		globWalk(globJoin(dir, seg), rest, out, depth+1)
	default:
		for _, name := range globList(dir, seg) {
			globWalk(globJoin(dir, name), rest, out, depth+1)
		}
	}
}

// globList lists the names in dir matching one segment, sorted; a
// wildcard does not match a leading ".".
func globList(dir, seg string) []string {
	entries, err := os.ReadDir(orDot(dir))
	if err != nil {
		return nil
	}
	var names []string
	for _, e := range entries {
		n := e.Name()
		if strings.HasPrefix(n, ".") && !strings.HasPrefix(seg, ".") {
			continue
		}
		if ok, err := path.Match(seg, n); err == nil && ok {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	return names
}

func globJoin(dir, name string) string {
	switch dir {
	case "":
		return name
	case "/":
		return "/" + name
	}
	return dir + "/" + name
}

func orDot(dir string) string {
	if dir == "" {
		return "."
	}
	return dir
}
