// Package erb renders Puppet's ERB templates (the template() and
// inline_template() functions) without Ruby. It is the template layer: it
// scans a template into literal text and Ruby code (Puppet's trim mode '-':
// <%- at the start of a line drops its indentation, -%> drops the newline
// after it) and hands the code to package ruby, which interprets the subset
// of Ruby real templates use; code outside it fails with an error naming
// the template and line rather than rendering something different.
//
// Templates see the calling Puppet scope as they do under Puppet 7: instance
// variables (@name) read scope variables (undef and unknown ones are nil),
// and `scope` offers lookupvar, [], function_xxx, call_function, setvar and,
// for scopes implementing VariableLister, to_hash.
//
// Errors come in two kinds, both naming template and line: Ruby exceptions
// the same template would raise under Puppet ("NoMethodError: undefined
// method `upcase' for nil:NilClass"), which a rescue clause can catch, and
// "unsupported Ruby in template F:L: ..." for valid Ruby package ruby does
// not implement. Rendering is bounded in steps, output size and nesting, so
// no input hangs or exhausts memory.
package erb

import "github.com/marionette-dev/marionette/ruby"

// The types a caller of this package deals in are package ruby's, which
// interprets the templates' Ruby; they are named here so that callers need
// only this package to render templates.
type (
	// Scope is what a template sees of the Puppet scope that renders it.
	Scope = ruby.Scope
	// VariableLister may be implemented by a Scope to support scope.to_hash.
	VariableLister = ruby.VariableLister
	// VariableUpdater may be implemented by a Scope whose variables a
	// template can change in place.
	VariableUpdater = ruby.VariableUpdater
	// ObjectSharer may be implemented by a Scope whose templates share Ruby
	// objects with the templates they render.
	ObjectSharer = ruby.ObjectSharer
	// Stopper may be implemented by a Scope whose rendering can be called off.
	Stopper = ruby.Stopper
	// RubyLibrary may be implemented by a Scope whose templates can require
	// the Ruby files modules ship under lib/.
	RubyLibrary = ruby.RubyLibrary
	// ModuleFiles may be implemented by a Scope whose templates can test
	// and read files inside the modules (File.exist?, File.read).
	ModuleFiles = ruby.ModuleFiles
	// ModuleFile is what ModuleFiles tells of a path inside a module.
	ModuleFile = ruby.ModuleFile
	// Objects maps Puppet hashes to the Ruby hashes templates were given.
	Objects = ruby.Objects
	// Template is a parsed template, safe to render concurrently.
	Template = ruby.Template
	// RenderOptions are the limits of one rendering a caller may raise.
	RenderOptions = ruby.RenderOptions
)

// NewObjects returns an empty table of shared objects.
func NewObjects() *Objects { return ruby.NewObjects() }

// Parse parses an ERB template; name is used in error messages.
func Parse(name string, src []byte) (*Template, error) {
	segs, err := scanERB(name, string(src))
	if err != nil {
		return nil, err
	}
	return ruby.ParseTemplate(name, segs)
}

// The limits of package ruby, under the names callers of templates use.
const (
	MaxStringSize          = ruby.MaxStringSize
	MaxTemplateSizeCeiling = ruby.MaxTemplateSizeCeiling
	TemplateSizeFlag       = ruby.TemplateSizeFlag
	MaxParseDepth          = ruby.MaxParseDepth
	MaxArraySize           = ruby.MaxArraySize
	MaxFormatWidth         = ruby.MaxFormatWidth
	MaxSteps               = ruby.MaxSteps
	MaxCallDepth           = ruby.MaxCallDepth
	MaxNesting             = ruby.MaxNesting
	MaxVisits              = ruby.MaxVisits
)
