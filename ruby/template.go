// Package ruby interprets the subset of Ruby that Puppet modules use in ERB
// templates and in Ruby functions (lib/puppet/functions, 3.x
// lib/puppet/parser/functions), without Ruby. Code outside that subset fails
// with an error naming the file and line rather than computing something
// different.
//
// The API is small: ParseTemplate turns a template's segments (scanned by
// package erb) into a Template to Render against a Scope; LoadRubyFunction
// loads a function file into a RubyFunction to Call. Values cross the
// boundary as Puppet values (package value).
//
// Errors come in two kinds, both naming file and line: Ruby exceptions the
// same code would raise under Puppet ("NoMethodError: undefined method
// `upcase' for nil:NilClass"), which a rescue clause can catch, and
// "unsupported Ruby in template F:L: ..." for valid Ruby this package does
// not implement. Evaluation is bounded in steps, output size and nesting
// (limits.go), so no input hangs or exhausts memory.
//
// Regular expressions are compiled on first use (sync.OnceValue), so that a
// process that renders no template does not pay for them.
package ruby

import (
	"fmt"
	"strings"

	"github.com/marionette-dev/marionette/value"
)

// Scope is what a template sees of the Puppet scope that renders it.
type Scope interface {
	// Variable looks a variable up by name: "x", "::x" or "mod::class::x".
	Variable(name string) (value.Value, bool)
	// CallFunction calls a Puppet function.
	CallFunction(name string, args []value.Value) (value.Value, error)
}

// VariableLister may be implemented by a Scope to support scope.to_hash,
// which some templates call. Variables returns every variable visible in
// the scope whose value is not undef, as Puppet's Scope#to_hash does.
type VariableLister interface {
	Variables() *value.Hash
}

// VariableNameLister may be implemented by a VariableLister: the names
// of the variables Variables returns, in its order, without reading their
// values (instance_variables).
type VariableNameLister interface {
	VariableNames() []string
}

// UntrackedReader may be implemented by a Scope whose compile records
// what it reads (readset): Ruby code that draws a random number reports
// it there, and the catalog is never reused.
type UntrackedReader interface {
	UntrackedRead(what string)
}

// VariableUpdater may be implemented by a Scope whose variables a template
// can change in place (@list << x, @h['k'] = v): after a successful
// rendering, UpdateVariable receives the new value of each variable whose
// array or hash the template changed. Under Puppet the template holds the
// variable's own Ruby object, so later code in that scope sees the change.
type VariableUpdater interface {
	UpdateVariable(name string, v value.Value)
}

// ObjectSharer may be implemented by a Scope whose templates must share Ruby
// objects with the templates they render. Under Puppet a template reads a
// variable's own Ruby object, and scope.setvar stores one into the scope, so
// a template can set a hash, store into it (scope.lookupvar('x')[:item] =
// ...) and render a nested template that reads it back (Debian's apache
// module does). SharedObjects returns the table of the current rendering
// tree, or nil to convert afresh on every read.
type ObjectSharer interface {
	SharedObjects() *Objects
}

// TopScoper may be implemented by a Scope whose top scope differs from it:
// a 4.x function's call_function (not scope.call_function) runs in the
// function's closure scope, which Puppet sets to the top scope for every
// function a module loads.
type TopScoper interface {
	TopScope() Scope
}

// VariableSetter may be implemented by the Scope TopScoper returns, so
// that a function's closure_scope['x'] = v (or setvar) sets top-scope
// variable x for the rest of the compile (miraheze's role() sets $_role,
// which a Hiera level interpolates). It fails as Puppet does when x is
// already set.
type VariableSetter interface {
	SetVariable(name string, v value.Value) error
}

// Stopper may be implemented by a Scope whose rendering can be called off
// (a compile that was cancelled or ran past its deadline). Rendering calls
// Stopped every so many evaluation steps and ends with its error, when not
// nil; a rescue clause does not catch it.
type Stopper interface {
	Stopped() error
}

// Objects maps Puppet hashes to the Ruby hashes templates were given for
// them. It belongs to one rendering tree (a template and the templates it
// renders) of one compile, and is not safe for concurrent use.
type Objects struct {
	hashes map[*value.Hash]*rhash
	// setvars are the variables the tree's templates set with scope.setvar.
	setvars map[string]any
}

// NewObjects returns an empty table. Its maps are made on first use: most
// templates share nothing.
func NewObjects() *Objects { return &Objects{} }

// SegmentKind tells what part of a template a Segment is.
type SegmentKind int

// The kinds of template segment.
const (
	SegText   SegmentKind = iota // literal output
	SegCode                      // <% code %>
	SegOutput                    // <%= expr %>
)

// Segment is one piece of a template after ERB scanning (package erb).
type Segment struct {
	Kind SegmentKind
	Text string
	Line int // line of the segment's first character
	// TrimmedNewline records that a code tag closed with -%> ate the newline
	// after it; a Ruby # comment in the tag then ends there, as in Ruby.
	TrimmedNewline bool
}

// Template is a parsed template. It is immutable and may be rendered
// concurrently from several goroutines.
type Template struct {
	name string
	body node
}

// Name returns the name the template was parsed under.
func (t *Template) Name() string { return t.name }

// ParseTemplate parses a template from its segments: literal text, Ruby
// code and Ruby expressions to output; name is used in error messages.
func ParseTemplate(name string, segs []Segment) (*Template, error) {
	// One token slice for all tags, sized from the source (a token per
	// three bytes of code is generous for templates), so that lexing
	// appends in place instead of copying each tag's tokens.
	n := 1
	for _, s := range segs {
		if s.Kind == SegText {
			n++
		} else {
			n += 3 + len(s.Text)/3
		}
	}
	lx := &lexer{name: name, toks: make([]token, 0, n)}
	lastLine := 1
	// commentOpen is set while a # comment that ran to the end of a code
	// tag is still open. ERB joins the code it generates for tags and texts
	// with "; " on one line and breaks lines only after a text holding a
	// newline, inside code, and for a -%> that ate one: until then, what
	// follows the tag is part of the comment.
	commentOpen := false
	for _, s := range segs {
		lastLine = s.Line
		if commentOpen {
			nl := strings.IndexByte(s.Text, '\n')
			switch {
			case s.Kind == SegText:
				// The text's output call is on the commented line; its
				// newlines come after that call.
				commentOpen = nl < 0
				lastLine = s.Line + strings.Count(s.Text, "\n")
				continue
			case nl < 0:
				commentOpen = !s.TrimmedNewline
				continue
			case s.Kind == SegOutput:
				return nil, fmt.Errorf("template %s:%d: SyntaxError: a # comment of an earlier tag comments out the start of this <%%= tag", name, s.Line)
			}
			// The code after the tag's first newline runs.
			s.Line += strings.Count(s.Text[:nl+1], "\n")
			s.Text = s.Text[nl+1:]
			commentOpen = false
		}
		switch s.Kind {
		case SegText:
			lx.toks = append(lx.toks, token{kind: tText, text: s.Text, line: s.Line})
			lastLine = s.Line + strings.Count(s.Text, "\n")
		case SegCode, SegOutput:
			if s.Kind == SegOutput {
				lx.toks = append(lx.toks, token{kind: tOutBegin, line: s.Line})
			}
			lx.src, lx.pos, lx.line, lx.base, lx.commentAtEnd = s.Text, 0, s.Line, len(lx.toks), false
			if err := lx.run(); err != nil {
				return nil, err
			}
			if lx.commentAtEnd {
				if s.Kind == SegOutput {
					// ERB wraps the expression as _erbout.<<((expr).to_s):
					// the comment takes the closing half.
					return nil, fmt.Errorf("template %s:%d: SyntaxError: a # comment in a <%%= tag comments out the end of the code ERB wraps around its expression", name, lx.line)
				}
				commentOpen = !s.TrimmedNewline
			}
			if s.Kind == SegOutput {
				lx.toks = append(lx.toks, token{kind: tOutEnd, line: lx.line})
			} else {
				lx.toks = append(lx.toks, token{kind: tNL, line: lx.line})
			}
			lastLine = lx.line
		}
	}
	toks := append(lx.toks, token{kind: tEOF, line: lastLine})
	p := &parser{name: name, toks: toks}
	body, err := p.parseProgram()
	if err != nil {
		return nil, err
	}
	return &Template{name: name, body: body}, nil
}

// Render evaluates the template against a scope and returns its output.
func (t *Template) Render(s Scope) (out string, err error) {
	return t.RenderWith(s, RenderOptions{})
}

// RenderOptions are the limits of one rendering a caller may raise.
type RenderOptions struct {
	// MaxSize bounds the template's output and any one string it builds;
	// zero means MaxStringSize, and it is at most MaxTemplateSizeCeiling.
	MaxSize int
}

// RenderWith is Render within the limits of o.
func (t *Template) RenderWith(s Scope, o RenderOptions) (out string, err error) {
	maxString := MaxStringSize
	if o.MaxSize > 0 {
		maxString = min(o.MaxSize, MaxTemplateSizeCeiling)
	}
	in := &interp{methods: builtinMethods(), tmpl: t, scope: s, ivars: map[string]any{}, maxString: maxString}
	defer func() {
		// A panic here is a bug in this package; report it against the
		// template rather than taking the compiler down.
		if r := recover(); r != nil {
			if tooLarge, ok := r.(*value.ValueTooLarge); ok {
				out, err = "", fmt.Errorf("template %s: %w", t.name, tooLarge)
				return
			}
			out, err = "", fmt.Errorf("template %s: internal error rendering: %v", t.name, r)
		}
	}()
	if _, err := in.eval(t.body, &env{vars: map[string]any{}}); err != nil {
		switch e := err.(type) {
		case *breakSignal:
			return "", fmt.Errorf("template %s:%d: break outside a block", t.name, e.line)
		case *nextSignal:
			// next at top level ends the template like return would.
			in.writeBack()
			return in.out.String(), nil
		}
		return "", err
	}
	in.writeBack()
	return in.out.String(), nil
}

// TemplateException reports whether err, from rendering a template, is an
// exception the template's Ruby did not rescue, with the template line it
// was raised at and its message: Puppet's template functions report those
// as failing to parse the template. It is one the template's own Ruby
// raised (NoMethodError, ZeroDivisionError, raise), or the error of a
// Puppet function the template called, which is then cause. Ruby beyond
// the subset and exceeded limits are not exceptions.
func TemplateException(err error) (line int, msg string, cause error, ok bool) {
	re, isRuby := err.(*rubyError)
	if !isRuby {
		return 0, "", nil, false
	}
	return re.line, re.msg, re.cause, true
}

// String returns a short description, for debugging.
func (t *Template) String() string { return "ruby.Template(" + t.name + ")" }
