package puppetconf

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
)

// Mount is one custom mount point of fileserver.conf: puppet:///<Name>/...
// serves the files under Path.
type Mount struct {
	Name string
	Path string
}

// builtinMounts are the mounts Puppet provides itself; fileserver.conf may
// name them (old files do, with allow lines) but does not change them.
var builtinMounts = map[string]bool{"modules": true, "plugins": true, "pluginfacts": true, "locales": true, "tasks": true}

// FileserverMounts reads the fileserverconfig file (default
// $confdir/fileserver.conf): "[name]" sections, each with a "path" line.
// A missing file is no mounts. allow and deny lines are accepted and
// ignored, as Puppet does since authorization moved to auth.conf. A path
// with %h, %H or %d (per-client mounts) and any other directive are errors:
// marionette does not serve them.
func (s *Settings) FileserverMounts() ([]Mount, error) {
	file := s.values["fileserverconfig"]
	if file == "" {
		file = filepath.Join(s.values[Confdir], "fileserver.conf")
	}
	data, err := readFile(s.fsys, file)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return ParseFileserverConf(file, string(data))
}

// ParseFileserverConf parses fileserver.conf text; file names it in errors.
func ParseFileserverConf(file, text string) ([]Mount, error) {
	var mounts []Mount
	seen := map[string]int{}
	cur := -1
	for i, line := range strings.Split(text, "\n") {
		lineNo := i + 1
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if strings.HasPrefix(line, "[") {
			name, ok := strings.CutSuffix(line[1:], "]")
			if !ok || name == "" || strings.ContainsAny(name, "/ \t[]") {
				return nil, fmt.Errorf("%s:%d: invalid mount %q", file, lineNo, line)
			}
			if _, dup := seen[name]; dup {
				return nil, fmt.Errorf("%s:%d: mount [%s] is defined twice", file, lineNo, name)
			}
			cur = -1
			if !builtinMounts[name] {
				seen[name] = len(mounts)
				cur = len(mounts)
				mounts = append(mounts, Mount{Name: name})
			} else {
				seen[name] = -1
			}
			continue
		}
		key, val, _ := strings.Cut(line, " ")
		if k, v, ok := strings.Cut(line, "\t"); ok && (len(k) < len(key)) {
			key, val = k, v
		}
		val = strings.TrimSpace(val)
		if len(seen) == 0 {
			return nil, fmt.Errorf("%s:%d: %q outside a [mount] section", file, lineNo, line)
		}
		switch key {
		case "allow", "deny", "allow_ip", "deny_ip":
			// Authorization is auth.conf's; Puppet ignores these.
		case "path":
			if cur < 0 {
				continue // a built-in mount's path is Puppet's own
			}
			if strings.ContainsAny(val, "%") {
				return nil, fmt.Errorf("%s:%d: mount [%s]: per-client paths (%%h, %%H, %%d) are not supported", file, lineNo, mounts[cur].Name)
			}
			if !strings.HasPrefix(val, "/") {
				return nil, fmt.Errorf("%s:%d: mount [%s]: path %q is not absolute", file, lineNo, mounts[cur].Name, val)
			}
			mounts[cur].Path = val
		default:
			return nil, fmt.Errorf("%s:%d: unknown directive %q in fileserver.conf", file, lineNo, key)
		}
	}
	for _, m := range mounts {
		if m.Path == "" {
			return nil, fmt.Errorf("%s: mount [%s] has no path", file, m.Name)
		}
	}
	return mounts, nil
}
