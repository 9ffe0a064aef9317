package resourcetype

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
)

//go:generate go run ./internal/gen -puppet /usr/lib/ruby/vendor_ruby/puppet -out zz_builtin.go

// Builtin returns the schema of a type that Puppet 7.23 itself ships
// (file, package, exec, ...), or nil. The name is matched without regard
// to case, as Puppet does for File['x'] and file { 'x': }. Each call
// builds a fresh Schema; a Set builds them once.
func Builtin(name string) *Schema {
	d := builtinDefinition(strings.ToLower(name))
	if d == nil {
		return nil
	}
	s, err := NewSchema(d, builtinMetaparams())
	if err != nil {
		// The generated table is checked by tests, so this cannot happen.
		return nil
	}
	return s
}

// BuiltinNames lists the built-in types.
func BuiltinNames() []string { return builtinTypeNames() }

// Metaparameters lists the attributes every type accepts.
func Metaparameters() []string { return builtinMetaparams() }

// UnknownTypeError is Puppet's failure for a resource declaration of a
// type that is neither native nor defined. In a manifest Puppet reports
// "Evaluation Error: Error while evaluating a Resource Statement,
// Unknown resource type: 'nosuchtype'"; a reference such as
// Nosuchtype['x'] fails with "Resource type not found: Nosuchtype".
type UnknownTypeError struct{ Type string }

func (e *UnknownTypeError) Error() string {
	return fmt.Sprintf("Unknown resource type: '%s'", e.Type)
}

// Set is the native resource types visible to a compile: the built-in
// ones plus those in the lib/puppet/type directories of a module path.
// It is immutable after NewSet and safe for concurrent use.
type Set struct {
	types map[string]*Schema

	// A lazy Set (NewLazySet) reads a module type the first time it is
	// looked up: dirs is the module path, read the types read so far
	// (nil: no such type), guarded by mu.
	lazy bool
	dirs []string
	mu   sync.RWMutex
	read map[string]*Schema
	// reading holds the types being read now, each with a channel closed
	// once read has it (guarded by mu).
	reading map[string]chan struct{}
	// probe answers whether files exist under the module directories.
	probe prober
}

// NewLazySet is NewSet that reads each module type when it is first looked
// up (lib/puppet/type/<name>.rb of the first module that has it, as
// Puppet's autoloader finds it), rather than every type file of the
// module path up front: a compile uses a few of the hundreds of types a
// Forge module path holds. Files that cannot be read make their type
// unknown. It is safe for concurrent use.
func NewLazySet(moduleDirs []string) *Set {
	s := &Set{types: make(map[string]*Schema), lazy: true, dirs: moduleDirs, read: make(map[string]*Schema)}
	meta := builtinMetaparams()
	for _, name := range builtinTypeNames() {
		if sch, err := NewSchema(builtinDefinition(name), meta); err == nil {
			s.types[name] = sch
		}
	}
	return s
}

// readType finds and reads module type name (lowercase) for a lazy Set.
// The file is read and parsed with no lock held; lookups of a type being
// read wait for it.
func (s *Set) readType(name string) *Schema {
	s.mu.RLock()
	sch, done := s.read[name]
	s.mu.RUnlock()
	if done {
		return sch
	}
	for {
		s.mu.Lock()
		if sch, done := s.read[name]; done {
			s.mu.Unlock()
			return sch
		}
		if busy, ok := s.reading[name]; ok {
			s.mu.Unlock()
			<-busy
			continue
		}
		if s.reading == nil {
			s.reading = make(map[string]chan struct{})
		}
		done := make(chan struct{})
		s.reading[name] = done
		s.mu.Unlock()
		return s.readClaimed(name, done)
	}
}

// readClaimed reads type name, which this goroutine has claimed in
// s.reading with done, records it, and releases the claim whatever
// happens (a panic included: the lookups waiting must go on).
func (s *Set) readClaimed(name string, done chan struct{}) (sch *Schema) {
	defer func() {
		s.mu.Lock()
		s.read[name] = sch
		delete(s.reading, name)
		s.mu.Unlock()
		close(done)
	}()
	return s.loadType(name)
}

// loadType reads module type name from the first module that has it; nil
// when none has, or its file does not define it.
func (s *Set) loadType(name string) *Schema {
	if !validTypeFileName(name) {
		return nil
	}
	for _, dir := range s.dirs {
		if !s.probe.existsIn(dir, "lib/puppet/type", name+".rb") {
			continue
		}
		typeDir := filepath.Join(dir, "lib", "puppet", "type")
		path := filepath.Join(typeDir, name+".rb")
		d, err := ReadTypeFile(path, typeDir)
		if err != nil || d == nil || strings.ToLower(d.Name) != name {
			return nil
		}
		if s.hasProvider(name) {
			d.AddParam("provider", false)
		}
		sch, err := NewSchema(d, builtinMetaparams())
		if err != nil {
			return nil
		}
		return sch
	}
	return nil
}

// hasProvider reports whether some module on the path has a provider for
// type name: Puppet then gives the type its provider parameter.
func (s *Set) hasProvider(name string) bool {
	for _, dir := range s.dirs {
		// Most modules have no provider for the type: a look at the
		// listing is far cheaper than trying to open the directory.
		if !s.probe.existsIn(dir, "lib/puppet/provider", name) {
			continue
		}
		files, err := os.ReadDir(filepath.Join(dir, "lib", "puppet", "provider", name))
		if err != nil {
			continue
		}
		for _, f := range files {
			if !f.IsDir() && strings.HasSuffix(f.Name(), ".rb") {
				return true
			}
		}
	}
	return false
}

// validTypeFileName rejects names that are no type's file name (paths).
func validTypeFileName(name string) bool {
	if name == "" {
		return false
	}
	for _, c := range name {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// NewSet reads the types of the given module directories (each holding
// lib/puppet/type/*.rb), earlier directories winning over later ones as
// on Puppet's module path. Built-in types win over module types of the
// same name. Files that cannot be read are skipped and reported; the
// Set is usable regardless.
func NewSet(moduleDirs []string) (*Set, []error) {
	s := &Set{types: make(map[string]*Schema)}
	meta := builtinMetaparams()
	for _, name := range builtinTypeNames() {
		sch, err := NewSchema(builtinDefinition(name), meta)
		if err == nil {
			s.types[name] = sch
		}
	}
	var problems []error
	var defs []*Definition
	providers := make(map[string]bool)
	for _, dir := range moduleDirs {
		found, errs := ReadModule(dir)
		problems = append(problems, errs...)
		defs = append(defs, found...)
		for _, p := range ModuleProviders(dir) {
			providers[p] = true
		}
	}
	for _, d := range defs {
		name := strings.ToLower(d.Name)
		if _, taken := s.types[name]; taken {
			continue
		}
		if providers[name] {
			d.AddParam("provider", false)
		}
		sch, err := NewSchema(d, meta)
		if err != nil {
			problems = append(problems, err)
			continue
		}
		s.types[name] = sch
	}
	return s, problems
}

// Lookup finds a native type by name, without regard to case. A
// namespaced name (mymod::thing) is never native: it can only be a
// defined type, so Lookup reports false.
func (s *Set) Lookup(name string) (*Schema, bool) {
	if s == nil || strings.Contains(name, "::") {
		return nil, false
	}
	// Callers pass capitalized names (File); lowercasing ASCII into a stack
	// buffer spares an allocation per lookup.
	var buf [64]byte
	if lower, ok := appendLowerASCII(buf[:0], name); ok {
		if sch, ok := s.types[string(lower)]; ok || !s.lazy {
			return sch, ok
		}
		// A module type read before (or found missing) is answered
		// without building its lowercase name again.
		s.mu.RLock()
		sch, done := s.read[string(lower)]
		s.mu.RUnlock()
		if done {
			return sch, sch != nil
		}
	} else if sch, ok := s.types[strings.ToLower(name)]; ok || !s.lazy {
		return sch, ok
	}
	sch := s.readType(strings.ToLower(name))
	return sch, sch != nil
}

// appendLowerASCII appends s lowercased to b; ok is false (and b useless)
// when s is not all ASCII.
func appendLowerASCII(b []byte, s string) (_ []byte, ok bool) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x80 {
			return b, false
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		b = append(b, c)
	}
	return b, true
}

// Names lists the types in the set, sorted; for a lazy Set, the built-in
// types and the module types looked up so far.
func (s *Set) Names() []string {
	names := make([]string, 0, len(s.types))
	for n := range s.types {
		names = append(names, n)
	}
	s.mu.RLock()
	for n, sch := range s.read {
		if sch != nil {
			names = append(names, n)
		}
	}
	s.mu.RUnlock()
	sort.Strings(names)
	return names
}
