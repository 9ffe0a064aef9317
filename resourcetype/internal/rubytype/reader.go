package rubytype

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/marionette-dev/marionette/ruby"
)

// Definition is what the reader learned about one resource type from
// Ruby source. It is plain data; NewSchema turns it into a Schema.
type Definition struct {
	Name string
	// Extension is true when the source only adds attributes to a type
	// created elsewhere, as in Puppet::Type.type(:file).newproperty(:mode).
	Extension bool
	// Parameters and Properties are in declaration order. Properties
	// include ensure when the type is ensurable.
	Parameters []string
	Properties []string
	// Namevars are the parameters marked isnamevar or :namevar => true.
	// A parameter called name is a key attribute even when unmarked.
	Namevars []string
	// NotIsomorphic is set by "@isomorphic = false" (exec, tidy): Puppet
	// then does not alias such resources by their uniqueness key.
	NotIsomorphic bool
	// TitlePatterns is nil when the type uses Puppet's default pattern.
	TitlePatterns []TitlePattern
	// TitlePatternsUnknown says why a title_patterns method could not be
	// read statically; the type's title patterns are then unknown.
	TitlePatternsUnknown string
	// Problems lists parts of the source the reader skipped.
	Problems []string
}

// TitlePattern maps a title to namevar values: when Regexp matches a
// title, capture group n (from 1) gives the value of Attributes[n-1].
type TitlePattern struct {
	Regexp     string // Go syntax, translated from Ruby
	Attributes []string
}

// FileResult is everything read from one Ruby file.
type FileResult struct {
	Types []*Definition
	// Metaparameters are newmetaparam calls outside any type (Puppet's
	// own type.rb defines them on Puppet::Type itself).
	Metaparameters []string
	// Requires are the arguments of require_relative, so a caller can
	// read the files that extend a type (Puppet's file type keeps most
	// of its properties in type/file/*.rb).
	Requires []string
}

// ReadError is a Ruby file the reader could not make sense of.
type ReadError struct {
	Path string
	Err  error
}

func (e *ReadError) Error() string { return e.Path + ": " + e.Err.Error() }
func (e *ReadError) Unwrap() error { return e.Err }

// Read extracts resource type definitions from the text of a Ruby file.
// It never executes anything; an error means the file's structure (its
// literals or its block nesting) could not be followed.
func Read(src []byte) (*FileResult, error) {
	toks, err := ruby.Tokens(string(src))
	if err != nil {
		return nil, err
	}
	match, err := matchBlocks(toks)
	if err != nil {
		return nil, err
	}
	sc := &scanner{toks: toks, match: match, res: &FileResult{}, wrappers: map[string]string{}}
	sc.scan(0, len(toks), nil, nil)
	return sc.res, nil
}

// keywordOpens reports whether toks[i], a keyword, opens a block closed
// by "end".
func keywordOpens(toks []ruby.Token, i int) bool {
	t := toks[i]
	if t.Kind != ruby.Keyword {
		return false
	}
	if i > 0 && !t.LineStart {
		p := toks[i-1]
		if p.Is(ruby.Operator, ".") || p.Is(ruby.Operator, "::") || p.Is(ruby.Operator, "&.") || p.Is(ruby.Keyword, "def") {
			return false // a method called begin, class, ...
		}
	}
	switch t.Text {
	case "do", "def", "class", "module", "begin", "case", "for":
		return true
	case "if", "unless", "while", "until":
		// "x if y" is a modifier; only a statement-leading if opens.
		return t.LineStart || i == 0 || !endsValue(toks[i-1])
	}
	return false
}

// endsValue reports whether t can end an expression, after which a
// trailing if or unless is a modifier rather than a statement.
func endsValue(t ruby.Token) bool {
	switch t.Kind {
	case ruby.Keyword:
		switch t.Text {
		case "and", "or", "not", "if", "unless", "while", "until", "then", "do",
			"else", "elsif", "when", "in", "case", "begin", "rescue", "ensure":
			return false
		}
		return true
	case ruby.Operator:
		return t.Text == ")" || t.Text == "]" || t.Text == "}"
	case ruby.Label:
		return false
	}
	return true
}

// closerOf returns the bracket closing open.
func closerOf(open string) string {
	switch open {
	case "(":
		return ")"
	case "[":
		return "]"
	}
	return "}"
}

// blockError is a block the reader could not match, with its line.
type blockError struct {
	line int
	msg  string
}

func (e *blockError) Error() string { return fmt.Sprintf("line %d: %s", e.line, e.msg) }

// matchBlocks pairs every opener with its closer: match[i] is the index
// of the token closing the block opened at i, or -1.
func matchBlocks(toks []ruby.Token) ([]int, error) {
	match := make([]int, len(toks))
	type open struct {
		idx     int
		closer  string
		loopDo  bool // while/until/for whose optional "do" is still to come
		keyword bool
	}
	var stack []open
	for i, t := range toks {
		match[i] = -1
		switch {
		case t.Kind == ruby.Operator && (t.Text == "(" || t.Text == "[" || t.Text == "{"):
			stack = append(stack, open{idx: i, closer: closerOf(t.Text)})
		case t.Kind == ruby.Operator && (t.Text == ")" || t.Text == "]" || t.Text == "}"):
			if len(stack) == 0 || stack[len(stack)-1].closer != t.Text {
				return nil, &blockError{line: t.Line, msg: fmt.Sprintf("unbalanced %q", t.Text)}
			}
			match[stack[len(stack)-1].idx] = i
			stack = stack[:len(stack)-1]
		case t.Is(ruby.Keyword, "end") && (i == 0 || !toks[i-1].Is(ruby.Operator, ".")):
			if len(stack) == 0 || !stack[len(stack)-1].keyword {
				return nil, &blockError{line: t.Line, msg: "unbalanced end"}
			}
			match[stack[len(stack)-1].idx] = i
			stack = stack[:len(stack)-1]
		case t.Is(ruby.Keyword, "do") && len(stack) > 0 && stack[len(stack)-1].loopDo &&
			toks[stack[len(stack)-1].idx].Line == t.Line:
			stack[len(stack)-1].loopDo = false // while cond do ... end
		case keywordOpens(toks, i):
			loop := t.Text == "while" || t.Text == "until" || t.Text == "for"
			stack = append(stack, open{idx: i, closer: "end", keyword: true, loopDo: loop})
		default:
			if len(stack) > 0 && stack[len(stack)-1].loopDo && toks[stack[len(stack)-1].idx].Line != t.Line {
				stack[len(stack)-1].loopDo = false
			}
		}
	}
	if len(stack) > 0 {
		t := toks[stack[len(stack)-1].idx]
		return nil, &blockError{line: t.Line, msg: fmt.Sprintf("%q is never closed", t.Text)}
	}
	return match, nil
}

type scanner struct {
	toks  []ruby.Token
	match []int
	res   *FileResult
	// wrappers maps the names of class methods that pass their first
	// argument on to newparam or newproperty (exec's newcheck) to
	// "param" or "property".
	wrappers map[string]string
}

func (sc *scanner) tok(i int) ruby.Token {
	if i < 0 || i >= len(sc.toks) {
		return ruby.Token{Kind: ruby.Operator}
	}
	return sc.toks[i]
}

// typeDef returns the definition of name, creating an extension record
// when the file has not created the type itself.
func (sc *scanner) typeDef(name string, extension bool) *Definition {
	for _, d := range sc.res.Types {
		if d.Name == name {
			return d
		}
	}
	d := &Definition{Name: name, Extension: extension}
	sc.res.Types = append(sc.res.Types, d)
	return d
}

// receiver returns the type a method call at index i is sent to: cur for
// an unqualified call or self.x, the named type for
// Puppet::Type.type(:name).x, and ok=false for any other receiver.
func (sc *scanner) receiver(i int, cur *Definition) (*Definition, bool) {
	if !sc.tok(i-1).Is(ruby.Operator, ".") {
		return cur, cur != nil
	}
	if sc.tok(i-2).Is(ruby.Keyword, "self") {
		return cur, cur != nil
	}
	if sc.tok(i-2).Is(ruby.Operator, ")") && sc.tok(i-3).Kind == ruby.Symbol &&
		sc.tok(i-4).Is(ruby.Operator, "(") && sc.tok(i-5).Is(ruby.Ident, "type") {
		return sc.typeDef(sc.tok(i-3).Text, true), true
	}
	return nil, false
}

// call describes a method call's arguments and its block.
type call struct {
	argStart, argEnd int // argument tokens [argStart, argEnd)
	next             int // first token after the arguments
	blockStart       int // index of do or {, or -1
	blockEnd         int // index of the matching end or }
}

// parseCall reads the arguments and block of the call named at index i.
func (sc *scanner) parseCall(i int) call {
	c := call{argStart: i + 1, blockStart: -1}
	if t := sc.tok(i + 1); t.Is(ruby.Operator, "(") && !t.SpaceBefore {
		c.argStart = i + 2
		c.argEnd = sc.match[i+1]
		c.next = c.argEnd + 1
	} else {
		j := i + 1
		for j < len(sc.toks) && !sc.toks[j].LineStart && !sc.toks[j].Is(ruby.Keyword, "do") {
			if m := sc.match[j]; m > 0 {
				j = m
			}
			j++
		}
		c.argEnd, c.next = j, j
	}
	if t := sc.tok(c.next); (t.Is(ruby.Keyword, "do") || t.Is(ruby.Operator, "{")) && sc.match[c.next] > 0 {
		c.blockStart, c.blockEnd = c.next, sc.match[c.next]
		c.next = c.blockEnd + 1
	}
	return c
}

// argNames returns the names the first argument of a call stands for.
func (sc *scanner) argNames(c call, bindings map[string][]string) ([]string, bool) {
	if c.argStart >= c.argEnd {
		return nil, false
	}
	t := sc.toks[c.argStart]
	if t.Is(ruby.Operator, "(") && c.argStart+1 < c.argEnd {
		t = sc.toks[c.argStart+1] // newparam (:x) with a space
	}
	switch {
	case t.Kind == ruby.Symbol && !t.Interpolated, t.Kind == ruby.String && !t.Interpolated:
		return []string{t.Text}, true
	case t.Kind == ruby.Ident:
		names, ok := bindings[t.Text]
		return names, ok
	}
	return nil, false
}

// hasNamevarOption reports whether the arguments contain
// ":namevar => true" or "namevar: true".
func (sc *scanner) hasNamevarOption(c call) bool {
	for j := c.argStart; j < c.argEnd; j++ {
		t := sc.toks[j]
		if t.Is(ruby.Symbol, "namevar") && sc.tok(j+1).Is(ruby.Operator, "=>") && sc.tok(j+2).Is(ruby.Keyword, "true") {
			return true
		}
		if t.Is(ruby.Label, "namevar") && sc.tok(j+1).Is(ruby.Keyword, "true") {
			return true
		}
	}
	return false
}

func (sc *scanner) blockHas(c call, ident string) bool {
	if c.blockStart < 0 {
		return false
	}
	for j := c.blockStart + 1; j < c.blockEnd; j++ {
		if sc.toks[j].Is(ruby.Ident, ident) && !sc.tok(j-1).Is(ruby.Operator, ".") {
			return true
		}
	}
	return false
}

func addName(list []string, name string) []string {
	if slices.Contains(list, name) {
		return list
	}
	return append(list, name)
}

// AddParam adds a parameter unless it is already there.
func (d *Definition) AddParam(name string, namevar bool) {
	d.Parameters = addName(d.Parameters, name)
	if namevar {
		d.Namevars = addName(d.Namevars, name)
	}
}

// AddProperty adds a property unless it is already there; ensure goes
// first, as in Puppet.
func (d *Definition) AddProperty(name string) {
	if name == "ensure" {
		// Puppet puts ensure first among the properties.
		if !slices.Contains(d.Properties, name) {
			d.Properties = append([]string{name}, d.Properties...)
		}
		return
	}
	d.Properties = addName(d.Properties, name)
}

func (sc *scanner) problem(d *Definition, t ruby.Token, format string, args ...any) {
	if d == nil {
		return
	}
	d.Problems = append(d.Problems, fmt.Sprintf("line %d: ", t.Line)+fmt.Sprintf(format, args...))
}

// attribute handles newparam/newproperty/newmetaparam (or a wrapper of
// them) named at index i and returns where scanning continues.
func (sc *scanner) attribute(i int, kind string, cur *Definition, bindings map[string][]string) int {
	c := sc.parseCall(i)
	target, ok := sc.receiver(i, cur)
	if !ok {
		if kind == "metaparam" && cur == nil && !sc.tok(i-1).Is(ruby.Operator, ".") {
			if names, ok := sc.argNames(c, bindings); ok {
				for _, n := range names {
					sc.res.Metaparameters = addName(sc.res.Metaparameters, n)
				}
			}
		}
		return c.next
	}
	names, ok := sc.argNames(c, bindings)
	if !ok {
		sc.problem(target, sc.toks[i], "%s with a name that is not a literal", sc.toks[i].Text)
		return c.next
	}
	namevar := sc.hasNamevarOption(c) || sc.blockHas(c, "isnamevar") ||
		(sc.tok(c.next).Is(ruby.Operator, ".") && sc.tok(c.next+1).Is(ruby.Ident, "isnamevar"))
	for _, n := range names {
		switch kind {
		case "param":
			target.AddParam(n, namevar)
		case "property":
			target.AddProperty(n)
		case "metaparam":
			sc.res.Metaparameters = addName(sc.res.Metaparameters, n)
		}
	}
	return c.next
}

// scan walks tokens [a, b) of a type body (cur != nil) or of the file.
func (sc *scanner) scan(a, b int, cur *Definition, bindings map[string][]string) {
	for i := a; i < b; i++ {
		t := sc.toks[i]
		afterDot := sc.tok(i-1).Is(ruby.Operator, ".") || sc.tok(i-1).Is(ruby.Operator, "&.")
		switch {
		case t.Is(ruby.Ident, "newtype"):
			c := sc.parseCall(i)
			names, ok := sc.argNames(c, nil)
			if !ok || len(names) != 1 {
				continue
			}
			d := sc.typeDef(names[0], false)
			d.Extension = false
			for j := c.argStart; j < c.argEnd; j++ {
				if tj := sc.toks[j]; tj.Is(ruby.Symbol, "parent") || tj.Is(ruby.Label, "parent") {
					sc.problem(d, tj, "newtype with :parent; inherited attributes are not read")
				}
			}
			if c.blockStart >= 0 {
				sc.scan(c.blockStart+1, c.blockEnd, d, bindings)
			}
			i = c.next - 1
		case t.Kind == ruby.Ident && (t.Text == "newparam" || t.Text == "newproperty" || t.Text == "newmetaparam"):
			if sc.tok(i-1).Is(ruby.Keyword, "def") {
				continue
			}
			i = sc.attribute(i, strings.TrimPrefix(t.Text, "new"), cur, bindings) - 1
		case t.Kind == ruby.Ident && !afterDot && sc.wrappers[t.Text] != "" && !sc.tok(i-1).Is(ruby.Keyword, "def"):
			i = sc.attribute(i, sc.wrappers[t.Text], cur, bindings) - 1
		case t.Is(ruby.Ident, "register_type") && afterDot && sc.tok(i-2).Is(ruby.Constant, "ResourceApi"):
			i = sc.resourceAPIType(i) - 1
		case t.Is(ruby.Ident, "ensurable"):
			target, ok := sc.receiver(i, cur)
			c := sc.parseCall(i)
			if ok {
				target.AddProperty("ensure")
			}
			i = c.next - 1
		case t.Is(ruby.Ident, "providify") && !afterDot && cur != nil && !sc.tok(i-1).Is(ruby.Keyword, "def"):
			cur.AddParam("provider", false)
		case t.Is(ruby.Ident, "paramclass") && cur != nil && sc.tok(i+1).Is(ruby.Operator, "(") &&
			sc.tok(i+2).Kind == ruby.Symbol && sc.tok(i+3).Is(ruby.Operator, ")") &&
			sc.tok(i+4).Is(ruby.Operator, ".") && sc.tok(i+5).Is(ruby.Ident, "isnamevar"):
			cur.Namevars = addName(cur.Namevars, sc.tok(i+2).Text)
			i += 5
		case t.Is(ruby.InstanceVar, "isomorphic") && cur != nil && sc.tok(i+1).Is(ruby.Operator, "=") && sc.tok(i+2).Is(ruby.Keyword, "false"):
			cur.NotIsomorphic = true
		case t.Is(ruby.Ident, "extend") && cur != nil && !afterDot && sc.tok(i+1).Kind == ruby.Constant:
			// Attributes added by a mixin's methods (keystone's
			// create_parameters) are invisible to a static reader.
			mixin := sc.tok(i + 1).Text
			for j := i + 2; sc.tok(j).Is(ruby.Operator, "::") && sc.tok(j+1).Kind == ruby.Constant; j += 2 {
				mixin += "::" + sc.tok(j+1).Text
			}
			sc.problem(cur, t, "extends %s; attributes it adds are not read", mixin)
		case t.Is(ruby.Ident, "require_relative") && sc.tok(i+1).Kind == ruby.String && !sc.tok(i+1).Interpolated:
			sc.res.Requires = append(sc.res.Requires, sc.tok(i+1).Text)
		case t.Is(ruby.Keyword, "def") && sc.match[i] > 0:
			sc.method(i, cur)
			i = sc.match[i]
		case t.Is(ruby.Operator, "[") && sc.match[i] > 0:
			if end, ok := sc.eachLoop(i, cur, bindings); ok {
				i = end
			}
		}
	}
}

// method looks at the definition "def ..." at index i: title_patterns is
// read, and class methods that forward their first argument to newparam
// or newproperty are remembered as wrappers.
func (sc *scanner) method(i int, cur *Definition) {
	end := sc.match[i]
	singleton := sc.tok(i+1).Is(ruby.Keyword, "self") && sc.tok(i+2).Is(ruby.Operator, ".")
	nameIdx := i + 1
	if singleton {
		nameIdx = i + 3
	}
	name := sc.tok(nameIdx).Text
	if !singleton || cur == nil {
		return
	}
	bodyStart := nameIdx + 1
	var firstArg string
	if t := sc.tok(bodyStart); t.Is(ruby.Operator, "(") && sc.match[bodyStart] > 0 {
		firstArg = sc.tok(bodyStart + 1).Text
		bodyStart = sc.match[bodyStart] + 1
	}
	if name == "title_patterns" {
		pats, why := sc.titlePatterns(bodyStart, end)
		if why != "" {
			cur.TitlePatternsUnknown = why
			cur.TitlePatterns = nil
		} else {
			cur.TitlePatterns = pats
			cur.TitlePatternsUnknown = ""
		}
		return
	}
	if firstArg == "" {
		return
	}
	for j := bodyStart; j < end; j++ {
		t := sc.toks[j]
		if (t.Text == "newparam" || t.Text == "newproperty") && t.Kind == ruby.Ident {
			arg := j + 1
			if sc.tok(arg).Is(ruby.Operator, "(") {
				arg++
			}
			if sc.tok(arg).Is(ruby.Ident, firstArg) {
				sc.wrappers[name] = strings.TrimPrefix(t.Text, "new")
				return
			}
		}
	}
}

// eachLoop handles "[:a, :b].each do |v| ... end" (and %i[a b].each),
// scanning the block once with v bound to every listed name. It reports
// false when the tokens at i are not such a loop.
func (sc *scanner) eachLoop(i int, cur *Definition, bindings map[string][]string) (int, bool) {
	closeIdx := sc.match[i]
	var names []string
	for j := i + 1; j < closeIdx; j++ {
		t := sc.toks[j]
		switch {
		case (t.Kind == ruby.Symbol || t.Kind == ruby.String) && !t.Interpolated:
			names = append(names, t.Text)
		case t.Is(ruby.Operator, ","):
		default:
			return 0, false
		}
	}
	j := closeIdx + 1
	if !sc.tok(j).Is(ruby.Operator, ".") || !sc.tok(j+1).Is(ruby.Ident, "each") {
		return 0, false
	}
	blk := j + 2
	if !(sc.tok(blk).Is(ruby.Keyword, "do") || sc.tok(blk).Is(ruby.Operator, "{")) || sc.match[blk] < 0 ||
		!sc.tok(blk+1).Is(ruby.Operator, "|") || sc.tok(blk+2).Kind != ruby.Ident || !sc.tok(blk+3).Is(ruby.Operator, "|") {
		return 0, false
	}
	inner := make(map[string][]string, len(bindings)+1)
	for k, v := range bindings {
		inner[k] = v
	}
	inner[sc.tok(blk+2).Text] = names
	sc.scan(blk+4, sc.match[blk], cur, inner)
	return sc.match[blk], true
}

// titlePatterns reads a title_patterns body that is one literal array
// of [regexp, [[:attr], ...]] pairs.
func (sc *scanner) titlePatterns(a, b int) ([]TitlePattern, string) {
	if !sc.tok(a).Is(ruby.Operator, "[") || sc.match[a] != b-1 {
		return nil, "title_patterns is not a literal array"
	}
	var pats []TitlePattern
	for _, entry := range sc.elements(a) {
		if !sc.tok(entry[0]).Is(ruby.Operator, "[") || sc.match[entry[0]] != entry[1]-1 {
			return nil, "title pattern entry is not an array"
		}
		parts := sc.elements(entry[0])
		if len(parts) != 2 || parts[0][1]-parts[0][0] != 1 {
			return nil, "title pattern entry is not [regexp, attributes]"
		}
		re := sc.toks[parts[0][0]]
		if re.Kind != ruby.Regexp {
			return nil, "title pattern is not a regexp literal"
		}
		if re.Interpolated {
			return nil, "title pattern regexp uses interpolation"
		}
		goRe, err := rubyRegexpToGo(re.Text, re.Flags)
		if err != nil {
			return nil, err.Error()
		}
		if !sc.tok(parts[1][0]).Is(ruby.Operator, "[") {
			return nil, "title pattern attributes are not an array"
		}
		var attrs []string
		for _, a := range sc.elements(parts[1][0]) {
			// Each attribute is [:name] or [:name, proc]; a proc that
			// changes the captured value is not modelled.
			if !sc.tok(a[0]).Is(ruby.Operator, "[") || sc.tok(a[0]+1).Kind != ruby.Symbol {
				return nil, "title pattern attribute is not [:name]"
			}
			attrs = append(attrs, sc.tok(a[0]+1).Text)
		}
		pats = append(pats, TitlePattern{Regexp: goRe, Attributes: attrs})
	}
	return pats, ""
}

// elements splits the array opened at index open into element token
// ranges [start, end).
func (sc *scanner) elements(open int) [][2]int {
	closeIdx := sc.match[open]
	var out [][2]int
	start := open + 1
	for j := open + 1; j < closeIdx; j++ {
		if sc.toks[j].Is(ruby.Operator, ",") {
			if j > start {
				out = append(out, [2]int{start, j})
			}
			start = j + 1
			continue
		}
		if m := sc.match[j]; m > 0 {
			j = m
		}
	}
	if closeIdx > start {
		out = append(out, [2]int{start, closeIdx})
	}
	return out
}

// rubyRegexpToGo translates a Ruby regexp literal to Go syntax. In Ruby
// ^ and $ always match at line boundaries and the m flag lets . match a
// newline, which are Go's m and s flags.
func rubyRegexpToGo(src, flags string) (string, error) {
	goFlags := "m"
	if strings.Contains(flags, "m") {
		goFlags += "s"
	}
	if strings.Contains(flags, "i") {
		goFlags += "i"
	}
	extended := strings.Contains(flags, "x")
	var b strings.Builder
	b.WriteString("(?" + goFlags + ")")
	inClass := false
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case c == '\\' && i+1 < len(src):
			i++
			switch n := src[i]; {
			case n == 'Z':
				b.WriteString(`(?:\n?\z)`)
			case n == 'h' && inClass:
				b.WriteString(`0-9a-fA-F`)
			case n == 'h':
				b.WriteString(`[0-9a-fA-F]`)
			case n == 'H' && !inClass:
				b.WriteString(`[^0-9a-fA-F]`)
			case n == '/':
				b.WriteByte('/')
			default:
				b.WriteByte('\\')
				b.WriteByte(n)
			}
		case c == '[':
			inClass = true
			b.WriteByte(c)
		case c == ']' && inClass:
			inClass = false
			b.WriteByte(c)
		case extended && !inClass && (c == ' ' || c == '\t' || c == '\n'):
		case extended && !inClass && c == '#':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		default:
			b.WriteByte(c)
		}
	}
	out := b.String()
	if _, err := regexp.Compile(out); err != nil {
		return "", fmt.Errorf("title pattern /%s/ has no Go equivalent: %v", src, err)
	}
	return out, nil
}
