package functions

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/marionette-dev/marionette/value"
)

// addFiles adds file(), find_file() and find_template(), which read files
// of the compiling machine: absolute paths, or "module/rest" for
// <module>/files/rest (<module>/templates/rest for find_template).
func addFiles(t Table) {
	t["file"] = fileFunc
	findImpl := func(c *Ctx, args []value.Value) (value.Value, error) {
		var names []value.Value
		for _, a := range args {
			if arr, ok := a.(value.Array); ok {
				names = append(names, arr...)
			} else {
				names = append(names, a)
			}
		}
		for _, n := range names {
			if p, ok := findFile(c, value.ToString(n)); ok {
				return value.String(p), nil
			}
		}
		return value.Undef, nil
	}
	t["find_file"] = Dispatch("find_file",
		Signature{Params: []Param{P("paths", tString)}, Repeated: true, Impl: findImpl},
		Fixed(findImpl, P("paths_array", &value.ArrayType{Elem: tString, Max: value.MaxInt})))
	// find_template: the same for templates, <module>/templates/rest.
	findTemplateImpl := func(c *Ctx, args []value.Value) (value.Value, error) {
		for _, a := range args {
			names := []value.Value{a}
			if arr, ok := a.(value.Array); ok {
				names = arr
			}
			for _, n := range names {
				if p, ok := findInModule(c, value.ToString(n), "templates"); ok {
					return value.String(p), nil
				}
			}
		}
		return value.Undef, nil
	}
	t["find_template"] = Dispatch("find_template",
		Signature{Params: []Param{P("paths", tString)}, Repeated: true, Impl: findTemplateImpl},
		Fixed(findTemplateImpl, P("paths_array", &value.ArrayType{Elem: tString, Max: value.MaxInt})))
}

// fileFunc is file(): the content of the first of its arguments that names
// an existing file; an error naming them all when none does.
func fileFunc(c *Ctx, args []value.Value) (value.Value, error) {
	if err := Arity3("file", args, 1, true); err != nil {
		return nil, err
	}
	names := make([]string, len(args))
	for i, a := range args {
		s, ok := a.(value.String)
		if !ok {
			return nil, fmt.Errorf("file(): expects String arguments, got %s", value.TypeString(value.TypeOf(a)))
		}
		names[i] = string(s)
	}
	for _, n := range names {
		p, ok := findFile(c, n)
		if !ok {
			continue
		}
		data, err := readRegularFile(p)
		if err != nil {
			return nil, err
		}
		return value.String(data), nil
	}
	return nil, fmt.Errorf("Could not find any files from %s", strings.Join(names, ", "))
}

// readRegularFile reads the regular file p, up to MaxFileSize bytes. It
// opens without blocking and looks at what it opened: a FIFO would block
// the compile past its deadline, a device (/dev/zero) never ends.
func readRegularFile(p string) ([]byte, error) {
	f, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, fmt.Errorf("Could not read file %s: %v", p, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("Could not read file %s: %v", p, err)
	}
	switch {
	case fi.IsDir():
		return nil, fmt.Errorf("Is a directory @ io_fillbuf - fd:5 %s", p)
	case !fi.Mode().IsRegular():
		return nil, fmt.Errorf("Could not read file %s: not a regular file (file() reads only regular files, a fixed limit of marionette)", p)
	case fi.Size() > MaxFileSize:
		return nil, fileTooLarge(p)
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, fmt.Errorf("Could not read file %s: %v", p, err)
	}
	if len(data) > MaxFileSize {
		return nil, fileTooLarge(p) // grew while read
	}
	return data, nil
}

func fileTooLarge(p string) error {
	return fmt.Errorf("Could not read file %s: larger than MaxFileSize (%d MiB, a fixed limit of marionette)", p, MaxFileSize>>20)
}

// findFile resolves a file argument as Puppet does: an absolute path as it
// is, "module/rest" to <module>/files/rest; either only when it exists
// (directories too).
func findFile(c *Ctx, name string) (string, bool) {
	return findInModule(c, name, "files")
}

// findInModule finds name, an absolute path or "module/rest" for
// <module>/<sub>/rest, on the compiling machine.
func findInModule(c *Ctx, name, sub string) (string, bool) {
	if filepath.IsAbs(name) {
		NoteUntracked(c, "a file by absolute path ("+name+")")
		if _, err := os.Stat(name); err == nil {
			return name, true
		}
		return "", false
	}
	mod, rest, ok := strings.Cut(name, "/")
	if !ok || mod == "" {
		return "", false
	}
	dir, found := c.Svc().ModulePath(mod)
	if !found {
		return "", false
	}
	p := filepath.Join(dir, sub, rest)
	if _, err := os.Stat(p); err != nil {
		return "", false
	}
	return p, true
}
