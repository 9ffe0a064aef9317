package hiera

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// globFiles expands a glob the way Ruby's Pathname.glob does for Hiera:
// `*`, `?`, `[...]`, `{a,b}` and `**` (any depth), files only, sorted.
func globFiles(pattern string) ([]string, error) {
	var out []string
	for _, p := range expandBraces(pattern) {
		if !strings.Contains(p, "**") {
			m, err := filepath.Glob(p)
			if err != nil {
				return nil, err
			}
			out = append(out, m...)
			continue
		}
		// Walk from the directory holding the `**` (the "x" keeps a trailing
		// slash from yielding the parent).
		base := filepath.Dir(p[:strings.Index(p, "**")] + "x")
		_ = filepath.WalkDir(base, func(path string, d os.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if matchDoubleStar(p, path) {
				out = append(out, path)
			}
			return nil
		})
	}
	files := out[:0]
	seen := map[string]bool{}
	for _, f := range out {
		if st, err := os.Stat(f); err == nil && !st.IsDir() && !seen[f] {
			seen[f] = true
			files = append(files, f)
		}
	}
	sort.Strings(files)
	return files, nil
}

// matchDoubleStar matches path segments, letting a `**` segment match zero or
// more directories.
func matchDoubleStar(pattern, path string) bool {
	ps := strings.Split(filepath.ToSlash(pattern), "/")
	xs := strings.Split(filepath.ToSlash(path), "/")
	var match func(i, j int) bool
	match = func(i, j int) bool {
		if i == len(ps) {
			return j == len(xs)
		}
		if ps[i] == "**" {
			for k := j; k <= len(xs); k++ {
				if match(i+1, k) {
					return true
				}
			}
			return false
		}
		if j == len(xs) {
			return false
		}
		ok, _ := filepath.Match(ps[i], xs[j])
		return ok && match(i+1, j+1)
	}
	return match(0, 0)
}

func expandBraces(p string) []string {
	open := strings.IndexByte(p, '{')
	if open < 0 {
		return []string{p}
	}
	depth := 0
	var parts []string
	start := open + 1
	for i := open; i < len(p); i++ {
		switch p[i] {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				parts = append(parts, p[start:i])
				var out []string
				for _, alt := range parts {
					out = append(out, expandBraces(p[:open]+alt+p[i+1:])...)
				}
				return out
			}
		case ',':
			if depth == 1 {
				parts = append(parts, p[start:i])
				start = i + 1
			}
		}
	}
	return []string{p}
}
