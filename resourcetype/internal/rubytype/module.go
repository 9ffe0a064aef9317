package rubytype

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// ReadModule reads the resource types of one module directory: every
// lib/puppet/type/*.rb plus the files they require_relative inside that
// directory. A type's own file wins over extensions read elsewhere.
func ReadModule(moduleDir string) ([]*Definition, []error) {
	typeDir := filepath.Join(moduleDir, "lib", "puppet", "type")
	entries, err := os.ReadDir(typeDir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return nil, []error{err}
	}
	var defs []*Definition
	var problems []error
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".rb") {
			continue
		}
		d, err := ReadTypeFile(filepath.Join(typeDir, e.Name()), typeDir)
		if err != nil {
			problems = append(problems, err)
			continue
		}
		if d != nil {
			defs = append(defs, d)
		}
	}
	return defs, problems
}

// ReadTypeFile reads the type defined in path, following require_relative
// into files below root, and merges what those files add to the type.
// It returns nil without error for a file that defines no type.
func ReadTypeFile(path, root string) (*Definition, error) {
	var main *Definition
	var extensions []*Definition
	seen := map[string]bool{}
	queue := []string{path}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		if seen[p] {
			continue
		}
		seen[p] = true
		src, err := os.ReadFile(p)
		if err != nil {
			return nil, &ReadError{Path: p, Err: err}
		}
		res, err := Read(src)
		if err != nil {
			return nil, &ReadError{Path: p, Err: err}
		}
		for _, d := range res.Types {
			if !d.Extension && main == nil && p == path {
				main = d
			} else {
				extensions = append(extensions, d)
			}
		}
		for _, r := range res.Requires {
			target := filepath.Join(filepath.Dir(p), r)
			if !strings.HasSuffix(target, ".rb") {
				target += ".rb"
			}
			if rel, err := filepath.Rel(root, target); err == nil && !strings.HasPrefix(rel, "..") {
				if _, err := os.Stat(target); err == nil {
					queue = append(queue, target)
				}
			}
		}
	}
	if main == nil {
		return nil, nil
	}
	for _, ext := range extensions {
		if ext.Name != main.Name {
			main.Problems = append(main.Problems, fmt.Sprintf("ignored attributes added to another type, %s", ext.Name))
			continue
		}
		main.Merge(ext)
	}
	return main, nil
}

// Merge adds the attributes of an extension of the same type.
func (d *Definition) Merge(ext *Definition) {
	for _, p := range ext.Parameters {
		d.AddParam(p, slices.Contains(ext.Namevars, p))
	}
	for _, p := range ext.Properties {
		d.AddProperty(p)
	}
	for _, n := range ext.Namevars {
		d.Namevars = addName(d.Namevars, n)
	}
	d.Problems = append(d.Problems, ext.Problems...)
}

// ModuleProviders lists the types a module has providers for
// (lib/puppet/provider/<type>/*.rb). Puppet gives a type its provider
// parameter as soon as any provider for it is loaded, whichever module
// it comes from.
func ModuleProviders(moduleDir string) []string {
	dir := filepath.Join(moduleDir, "lib", "puppet", "provider")
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		files, err := os.ReadDir(filepath.Join(dir, e.Name()))
		if err != nil {
			continue
		}
		for _, f := range files {
			if !f.IsDir() && strings.HasSuffix(f.Name(), ".rb") {
				out = append(out, e.Name())
				break
			}
		}
	}
	return out
}
