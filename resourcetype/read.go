package resourcetype

import "github.com/marionette-dev/marionette/resourcetype/internal/rubytype"

// The Ruby reader lives in internal/rubytype so that the generator of
// the built-in table can use it without this package having to compile
// first; these names make it part of this package's API.

// Definition is what the reader learned about one resource type from
// Ruby source; see NewSchema.
type Definition = rubytype.Definition

// TitlePattern maps a title to namevar values.
type TitlePattern = rubytype.TitlePattern

// FileResult is everything read from one Ruby file.
type FileResult = rubytype.FileResult

// ReadError is a Ruby file the reader could not make sense of.
type ReadError = rubytype.ReadError

// Read extracts resource type definitions from the text of a Ruby file
// without executing it.
func Read(src []byte) (*FileResult, error) { return rubytype.Read(src) }

// ReadModule reads lib/puppet/type/*.rb of one module directory.
func ReadModule(moduleDir string) ([]*Definition, []error) { return rubytype.ReadModule(moduleDir) }

// ReadTypeFile reads one type file, following require_relative into
// files below root.
func ReadTypeFile(path, root string) (*Definition, error) { return rubytype.ReadTypeFile(path, root) }

// ModuleProviders lists the types a module directory has providers for.
func ModuleProviders(moduleDir string) []string { return rubytype.ModuleProviders(moduleDir) }
