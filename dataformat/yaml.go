package dataformat

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"

	"github.com/marionette-dev/marionette/value"
)

// YAMLError is a YAML document that could not be read as Puppet data. Line is 0
// when the YAML library gave no position.
type YAMLError struct {
	File string
	Line int
	Msg  string
}

func (e *YAMLError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("(%s): %s at line %d", e.File, e.Msg, e.Line)
	}
	return fmt.Sprintf("(%s): %s", e.File, e.Msg)
}

// FromYAML parses a YAML document into a Puppet value the way Puppet reads
// hiera data, facts and ENC output: through Ruby's Psych with YAML 1.1 scalar
// rules (so plain `yes`, `on` and `off` are Booleans, `1:30` is 5400 and `017`
// is octal), mappings become ordered Hashes in file order, null becomes undef.
// Dates and timestamps are rejected, as Puppet's safe loader rejects them. An
// empty document yields undef. file is only used in error messages.
func FromYAML(data []byte, file string) (value.Value, error) {
	return FromYAMLLimit(data, file, 0)
}

// FromYAMLLimit is FromYAML with the document bounded to maxNodes values
// (see MaxYAMLNodes, which zero means).
func FromYAMLLimit(data []byte, file string, maxNodes int) (value.Value, error) {
	c := yamlConverter{file: file, max: int64(maxNodes)}
	// Most data files are simple block YAML, which parseFastYAML reads
	// much faster than yaml.v3; anything else goes to yaml.v3.
	if doc, ok := parseFastYAML(data); ok {
		return c.convert(doc)
	}
	return c.decodeSlow(data)
}

// FactsFromYAML parses a facts file the way Puppet's yaml facts terminus
// loads one: like FromYAML, but the document may be the Puppet::Node::Facts
// object puppetserver writes under yaml/facts/ (`--- !ruby/object:Puppet::
// Node::Facts` with name, values, timestamp and expiration keys), and Ruby
// Symbols (`:name` or `!ruby/sym name`) are read as Strings. It returns the
// document's mapping as is (for a Facts object the facts are under
// "values"); the caller decides what a facts file must hold.
func FactsFromYAML(data []byte, file string) (value.Value, error) {
	return FactsFromYAMLLimit(data, file, 0)
}

// FactsFromYAMLLimit is FactsFromYAML with the document bounded to
// maxNodes values (see MaxYAMLNodes, which zero means).
func FactsFromYAMLLimit(data []byte, file string, maxNodes int) (value.Value, error) {
	c := yamlConverter{file: file, facts: true, max: int64(maxNodes)}
	if doc, ok := parseFastYAML(data); ok {
		return c.convert(doc)
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return value.Undef, nil
		}
		return nil, yamlLibError(file, err)
	}
	return c.convert(&doc)
}

// ParseYAMLTree parses a YAML document into yaml.v3's node tree, for a
// reader that interprets the nodes itself (hiera.yaml); FromYAMLNode
// converts any of them. Simple block YAML, nearly every hiera.yaml, takes
// the fast reader (a compile reads one per module with data); the rest goes
// to yaml.v3. file is only used in error messages.
func ParseYAMLTree(data []byte, file string) (*yaml.Node, error) {
	if doc, ok := parseFastYAML(data); ok {
		return doc, nil
	}
	doc := new(yaml.Node)
	if err := yaml.Unmarshal(data, doc); err != nil {
		return nil, yamlLibError(file, err)
	}
	return doc, nil
}

// yamlLibError turns a yaml.v3 error ("yaml: line 3: did not find ...") into a
// YAMLError naming the file and line.
func yamlLibError(file string, err error) error {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	line := 0
	if rest, ok := strings.CutPrefix(msg, "line "); ok {
		if i := strings.Index(rest, ":"); i > 0 {
			if n, convErr := strconv.Atoi(rest[:i]); convErr == nil {
				line = n
				msg = strings.TrimSpace(rest[i+1:])
			}
		}
	}
	return &YAMLError{File: file, Line: line, Msg: msg}
}

// FromYAMLNode converts one parsed YAML node (a document or any node in it).
// An anchored node is converted once and its value shared by every alias
// (values are immutable), and a document that expands to more than
// MaxYAMLNodes values is an error.
func FromYAMLNode(n *yaml.Node, file string) (value.Value, error) {
	c := yamlConverter{file: file}
	return c.convert(n)
}

type yamlConverter struct {
	file string
	// seen guards against alias cycles (an anchor referring to itself).
	seen map[*yaml.Node]bool
	// anchored holds the value of each anchored node converted so far and
	// the number of values it expands to, for the aliases to it.
	anchored map[*yaml.Node]anchoredValue
	// nodes counts the values of the document so far, each alias counting
	// as the expanded size of what it refers to.
	nodes int64
	// facts accepts what Puppet's facts terminus permits besides plain
	// data: the Puppet::Node::Facts object tag and Ruby Symbols (as
	// Strings).
	facts bool
	// max bounds nodes; zero means MaxYAMLNodes.
	max int64
}

// factsTag is the tag of a Puppet::Node::Facts object as Puppet writes it.
const factsTag = "!ruby/object:Puppet::Node::Facts"

type anchoredValue struct {
	v    value.Value
	size int64
}

// count adds k values to the document's total and fails past MaxYAMLNodes.
func (c *yamlConverter) count(n *yaml.Node, k int64) error {
	c.nodes += k
	limit := c.max
	if limit <= 0 {
		limit = MaxYAMLNodes
	}
	if c.nodes > limit {
		return &YAMLError{File: c.file, Line: n.Line, Msg: fmt.Sprintf("document expands to more than MaxYAMLNodes (%d) values, each alias counted in full (a limit of marionette; %s raises it)", limit, YAMLNodesFlag)}
	}
	return nil
}

func (c *yamlConverter) fail(n *yaml.Node, format string, args ...any) error {
	return &YAMLError{File: c.file, Line: n.Line, Msg: fmt.Sprintf(format, args...)}
}

func (c *yamlConverter) convert(n *yaml.Node) (value.Value, error) {
	if n.Anchor == "" || n.Kind == yaml.AliasNode {
		return c.convertNode(n)
	}
	start := c.nodes
	v, err := c.convertNode(n)
	if err != nil {
		return nil, err
	}
	if c.anchored == nil {
		c.anchored = map[*yaml.Node]anchoredValue{}
	}
	c.anchored[n] = anchoredValue{v: v, size: c.nodes - start}
	return v, nil
}

func (c *yamlConverter) convertNode(n *yaml.Node) (value.Value, error) {
	if n.Kind != yaml.AliasNode && n.Kind != yaml.DocumentNode {
		if err := c.count(n, 1); err != nil {
			return nil, err
		}
	}
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return value.Undef, nil
		}
		return c.convert(n.Content[0])
	case yaml.AliasNode:
		if a, ok := c.anchored[n.Alias]; ok {
			if err := c.count(n, a.size); err != nil {
				return nil, err
			}
			return a.v, nil
		}
		if c.seen[n.Alias] {
			return nil, c.fail(n, "recursive alias *%s", n.Value)
		}
		if c.seen == nil {
			c.seen = map[*yaml.Node]bool{}
		}
		c.seen[n.Alias] = true
		defer delete(c.seen, n.Alias)
		return c.convert(n.Alias)
	case yaml.SequenceNode:
		if class, ok := rubyTagClass(n); ok && n.Tag != "!!set" {
			return nil, c.fail(n, "Tried to load unspecified class: %s", class)
		}
		arr := make(value.Array, 0, len(n.Content))
		for _, e := range n.Content {
			v, err := c.convert(e)
			if err != nil {
				return nil, err
			}
			arr = append(arr, v)
		}
		return arr, nil
	case yaml.MappingNode:
		if class, ok := rubyTagClass(n); ok && !(c.facts && n.Tag == factsTag) {
			return nil, c.fail(n, "Tried to load unspecified class: %s", class)
		}
		b := value.NewHashBuilder(len(n.Content) / 2)
		if err := c.fillMapping(b, n); err != nil {
			return nil, err
		}
		return b.Build(), nil
	case yaml.ScalarNode:
		return c.scalar(n)
	}
	return nil, c.fail(n, "unexpected YAML node kind %d", n.Kind)
}

// fillMapping adds the entries of a mapping node, expanding `<<` merge keys
// (entries written in the mapping itself win over merged ones).
func (c *yamlConverter) fillMapping(b *value.HashBuilder, n *yaml.Node) error {
	for i := 0; i+1 < len(n.Content); i += 2 {
		kn, vn := n.Content[i], n.Content[i+1]
		if kn.Kind == yaml.ScalarNode && kn.Tag == "!!merge" {
			if err := c.merge(b, vn); err != nil {
				return err
			}
			continue
		}
		var k value.Value
		if sym, ok := symbolKey(kn); ok {
			// Psych makes a Ruby Symbol; Puppet turns symbol keys into strings.
			k = value.String(sym)
		} else {
			var err error
			if k, err = c.convert(kn); err != nil {
				return err
			}
		}
		v, err := c.convert(vn)
		if err != nil {
			return err
		}
		b.Set(k, v)
	}
	return nil
}

// symbolKey recognises a plain `:name` key, which Psych loads as a Symbol.
func symbolKey(n *yaml.Node) (string, bool) {
	if n.Kind != yaml.ScalarNode || n.Style != 0 || len(n.Value) < 2 || n.Value[0] != ':' {
		return "", false
	}
	if yamlWordRE().MatchString(n.Value) || strings.Contains(n.Value, "\n") {
		return "", false
	}
	name := n.Value[1:]
	if len(name) >= 2 && (name[0] == '"' || name[0] == '\'') && name[len(name)-1] == name[0] {
		name = name[1 : len(name)-1]
	}
	return name, true
}

// merge applies a `<<` merge key the way Psych does: the merged mapping's
// entries are set at that point (so later explicit keys win, earlier ones are
// overwritten); a sequence of mappings is applied last to first.
func (c *yamlConverter) merge(b *value.HashBuilder, vn *yaml.Node) error {
	if vn.Kind == yaml.AliasNode {
		// The aliased value, converted once: replaying its entries sets the
		// same keys in the same order as walking its nodes again would.
		v, err := c.convert(vn)
		if err != nil {
			return err
		}
		switch v := v.(type) {
		case *value.Hash:
			replay(b, v)
			return nil
		case value.Array:
			for i := len(v) - 1; i >= 0; i-- {
				h, ok := v[i].(*value.Hash)
				if !ok {
					return c.fail(vn, "map merge requires map or sequence of maps as the value")
				}
				replay(b, h)
			}
			return nil
		}
		return c.fail(vn, "map merge requires map or sequence of maps as the value")
	}
	switch vn.Kind {
	case yaml.MappingNode:
		return c.fillMapping(b, vn)
	case yaml.SequenceNode:
		for i := len(vn.Content) - 1; i >= 0; i-- {
			if err := c.merge(b, vn.Content[i]); err != nil {
				return err
			}
		}
		return nil
	}
	return c.fail(vn, "map merge requires map or sequence of maps as the value")
}

// replay sets the entries of h in b, in h's order.
func replay(b *value.HashBuilder, h *value.Hash) {
	for i, k := range h.Keys() {
		b.Set(k, h.Values()[i])
	}
}

func (c *yamlConverter) scalar(n *yaml.Node) (value.Value, error) {
	quoted := n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) != 0
	explicitTag := n.Style&yaml.TaggedStyle != 0
	if explicitTag {
		return c.tagged(n)
	}
	if quoted {
		return value.String(n.Value), nil
	}
	return c.plain(n)
}

// tagged converts a scalar with an explicit tag such as `!!int "3"`.
func (c *yamlConverter) tagged(n *yaml.Node) (value.Value, error) {
	switch n.Tag {
	case "!!str", "!":
		return value.String(n.Value), nil
	case "!!int":
		if i, ok := parseYAMLInt(n.Value); ok {
			return i, nil
		}
		return nil, c.fail(n, "invalid value for Integer(): %q", n.Value)
	case "!!float":
		if f, ok := parseYAMLFloat(n.Value); ok {
			return f, nil
		}
		if i, ok := parseYAMLInt(n.Value); ok {
			return value.Float(i.(value.Integer)), nil
		}
		return nil, c.fail(n, "invalid value for Float(): %q", n.Value)
	case "!!bool", "!!null":
		return c.plain(n)
	case "!!binary":
		// Psych decodes it (leniently, like Ruby's unpack("m")).
		b64 := strings.Map(func(r rune) rune {
			if r == ' ' || r == '\n' || r == '\r' || r == '\t' {
				return -1
			}
			return r
		}, n.Value)
		if b, err := base64.StdEncoding.DecodeString(b64); err == nil {
			return value.String(b), nil
		}
		if b, err := base64.RawStdEncoding.DecodeString(strings.TrimRight(b64, "=")); err == nil {
			return value.String(b), nil
		}
		return value.String(n.Value), nil
	case "!ruby/sym", "!ruby/symbol":
		if c.facts {
			return value.String(n.Value), nil
		}
	}
	if class, ok := rubyTagClass(n); ok {
		return nil, c.fail(n, "Tried to load unspecified class: %s", class)
	}
	// Psych ignores a tag it does not know and reads the scalar as if
	// untagged.
	if n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
		return value.String(n.Value), nil
	}
	return c.plain(n)
}

// rubyTagClass names the Ruby class a tag asks Psych to make, as Psych's
// safe loader names it when it refuses: `!ruby/object:Foo` is Foo,
// `!ruby/sym` is Symbol, `!ruby/class String` is String, `!!set` (on a
// mapping) is Psych::Set. ok=false for a tag Psych ignores or resolves
// itself (`!foo`, `!!str`, `!!int`, ...).
func rubyTagClass(n *yaml.Node) (class string, ok bool) {
	if n.Style&yaml.TaggedStyle == 0 {
		return "", false
	}
	if n.Tag == "!!set" {
		return "Psych::Set", true
	}
	rest, isRuby := strings.CutPrefix(n.Tag, "!ruby/")
	if !isRuby {
		return "", false
	}
	kind, class, _ := strings.Cut(rest, ":")
	switch {
	case class != "":
		return class, true
	case kind == "sym" || kind == "symbol":
		return "Symbol", true
	case kind == "class" || kind == "module":
		return n.Value, true
	case kind == "":
		return "Object", true
	}
	return strings.ToUpper(kind[:1]) + kind[1:], true
}

var (
	yamlTimeRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^-?\d{4}-\d{1,2}-\d{1,2}(?:[Tt]|\s+)\d{1,2}:\d\d:\d\d(?:\.\d*)?(?:\s*(?:Z|[-+]\d{1,2}:?(?:\d\d)?))?$`)
	})
	yamlDateRE    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\d{4}-(?:1[012]|0\d|\d)-(?:[12]\d|3[01]|0\d|\d)$`) })
	yamlWordRE    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[^\d.:-]?[\pL_\s!@#$%^&*(){}<>|/\\~;=]+`) })
	yamlSexaIntRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[-+]?[0-9][0-9_]*(:[0-5]?[0-9]){1,2}$`) })
	yamlSexaFltRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[-+]?[0-9][0-9_]*(:[0-5]?[0-9]){1,2}\.[0-9_]*$`) })
	yamlFloatRE   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[-+]?([0-9][0-9_,]*)?\.[0-9]*([eE][-+][0-9]+)?$`) })
	yamlIntegerRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(?:[-+]?0b[0-1_,]+|[-+]?0[0-7_,]+|[-+]?(?:0|[1-9](?:[0-9]|,[0-9]|_[0-9])*)|[-+]?0x[0-9a-fA-F_,]+)$`)
	})
	yamlNullRE     = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)^null$`) })
	yamlTrueRE     = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)^(yes|true|on)$`) })
	yamlFalseRE    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)^(no|false|off)$`) })
	yamlNotBoolRE  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)^[^ytonf~]`) })
	yamlInfRE      = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)^\+?\.inf$`) })
	yamlNegInfRE   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)^-\.inf$`) })
	yamlNaNRE      = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)^\.nan$`) })
	yamlLoneDotsRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[-+]?\.$`) })
)

// plain resolves an untagged plain scalar with Psych's YAML 1.1 rules.
func (c *yamlConverter) plain(n *yaml.Node) (value.Value, error) {
	s := n.Value
	if plainWord(s) {
		return value.String(s), nil
	}
	if n, ok := plainDecimal(s); ok {
		return value.Integer(n), nil
	}
	switch {
	case s == "":
		return value.Undef, nil
	case yamlWordRE().MatchString(s) || strings.Contains(s, "\n"):
		if len(s) > 5 || yamlNotBoolRE().MatchString(s) {
			return value.String(s), nil
		}
		switch {
		case s == "~" || yamlNullRE().MatchString(s):
			return value.Undef, nil
		case yamlTrueRE().MatchString(s):
			return value.True, nil
		case yamlFalseRE().MatchString(s):
			return value.False, nil
		}
		return value.String(s), nil
	case yamlTimeRE().MatchString(s):
		return nil, c.fail(n, "Tried to load unspecified class: Time")
	case yamlDateRE().MatchString(s):
		return nil, c.fail(n, "Tried to load unspecified class: Date")
	case yamlInfRE().MatchString(s):
		return value.Float(math.Inf(1)), nil
	case yamlNegInfRE().MatchString(s):
		return value.Float(math.Inf(-1)), nil
	case yamlNaNRE().MatchString(s):
		return value.Float(math.NaN()), nil
	case len(s) > 1 && s[0] == ':':
		// Psych makes a Ruby Symbol; Puppet has no such data type, but
		// the facts terminus permits it and the value is used as a String.
		if c.facts {
			return value.String(s[1:]), nil
		}
		return nil, c.fail(n, "Tried to load unspecified class: Symbol")
	case yamlSexaIntRE().MatchString(s):
		return sexagesimal(s, false), nil
	case yamlSexaFltRE().MatchString(s):
		return sexagesimal(s, true), nil
	case yamlFloatRE().MatchString(s):
		if yamlLoneDotsRE().MatchString(s) {
			return value.String(s), nil
		}
		if f, ok := parseYAMLFloat(s); ok {
			return f, nil
		}
		return value.String(s), nil
	case yamlIntegerRE().MatchString(s):
		if i, ok := parseYAMLInt(s); ok {
			return i, nil
		}
		return value.String(s), nil
	}
	if s == "~" {
		return value.Undef, nil
	}
	return value.String(s), nil
}

// plainWord reports, without regexps, the commonest plain scalar: one that
// starts with an ASCII letter and cannot be a Boolean or null (longer than
// five characters, or not starting with y, t, o, n or f). Only the word rule
// of plain can match such a text (numbers, dates, times, infinities and
// symbols start with a digit, sign, dot or colon), and it makes it a String.
func plainWord(s string) bool {
	if s == "" || strings.Contains(s, "\n") {
		return false
	}
	c := s[0] | 0x20 // lower case, for letters
	if c < 'a' || c > 'z' {
		return false
	}
	return len(s) > 5 || !strings.ContainsRune("ytonf", rune(c))
}

// plainDecimal reads, without regexps, the commonest number: 0 or a decimal
// integer without leading zero, sign '-' allowed, up to 18 digits (no
// overflow). Psych reads those as Integers; the rest goes through plain.
func plainDecimal(s string) (int64, bool) {
	digits := strings.TrimPrefix(s, "-")
	if digits == "" || len(digits) > 18 || (digits[0] == '0' && len(digits) > 1) {
		return 0, false
	}
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return 0, false
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	return n, err == nil
}

// sexagesimal evaluates YAML 1.1 base-60 numbers the way Psych does: the
// segments are weighted 60^2, 60, 1 counted from the first, so 1:30 is 5400.
func sexagesimal(s string, float bool) value.Value {
	// A sign belongs to the first segment only: -1:30 is -3600 + 1800.
	parts := strings.Split(strings.ReplaceAll(s, "_", ""), ":")
	var fsum float64
	var isum int64
	for i, p := range parts {
		weight := int64(1)
		for range absInt(i - 2) {
			weight *= 60
		}
		if float {
			f, _ := strconv.ParseFloat(p, 64)
			fsum += f * float64(weight)
		} else {
			n, _ := strconv.ParseInt(p, 10, 64)
			isum += n * weight
		}
	}
	if float {
		return value.Float(fsum)
	}
	return value.Integer(isum)
}

func absInt(i int) int {
	if i < 0 {
		return -i
	}
	return i
}

// parseYAMLInt parses Ruby Integer() syntax after Psych strips `,` and `_`:
// 0b binary, 0x hex, leading 0 octal.
func parseYAMLInt(s string) (value.Value, bool) {
	s = stripDigitSeparators(s)
	neg := false
	switch {
	case strings.HasPrefix(s, "-"):
		neg, s = true, s[1:]
	case strings.HasPrefix(s, "+"):
		s = s[1:]
	}
	base := 10
	switch {
	case strings.HasPrefix(s, "0b"), strings.HasPrefix(s, "0B"):
		base, s = 2, s[2:]
	case strings.HasPrefix(s, "0x"), strings.HasPrefix(s, "0X"):
		base, s = 16, s[2:]
	case len(s) > 1 && s[0] == '0':
		base, s = 8, s[1:]
	}
	u, err := strconv.ParseUint(s, base, 64)
	if err != nil || s == "" {
		return nil, false
	}
	if neg {
		if u > 1<<63 {
			return nil, false
		}
		return value.Integer(-int64(u)), true
	}
	if u > math.MaxInt64 {
		return nil, false
	}
	return value.Integer(int64(u)), true
}

func parseYAMLFloat(s string) (value.Value, bool) {
	s = stripDigitSeparators(s)
	// Ruby's Float() rejects "1." and ".e"; Psych drops a dot before e/end.
	s = strings.Replace(s, ".e", "e", 1)
	s = strings.Replace(s, ".E", "E", 1)
	s = strings.TrimSuffix(s, ".")
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return nil, false
	}
	return value.Float(f), true
}

// stripDigitSeparators drops the ',' and '_' Psych allows inside numbers.
// Every scalar of every data file passes here, so the common case (none)
// must not allocate.
func stripDigitSeparators(s string) string {
	if !strings.ContainsAny(s, ",_") {
		return s
	}
	return strings.NewReplacer(",", "", "_", "").Replace(s)
}
