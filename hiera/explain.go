package hiera

import (
	"strconv"
	"strings"

	"github.com/marionette-dev/marionette/value"
)

// ExplainNode is one step of a lookup explanation: a branch (a searched key,
// layer, hierarchy entry, path, merge, interpolation) or an event under it.
type ExplainNode struct {
	// Kind is the step: "root", "meta", "data_provider", "level", "path",
	// "merge", "interpolate", "scope", "sub_lookup" for branches; "found",
	// "not_found", "result", "text", "invalid_key", "module_not_found",
	// "module_provider_not_found" for events.
	Kind string
	// Text is the line shown for the step, worded like `puppet lookup --explain`.
	Text string
	// Value is the value found or merged, for "found" and "result".
	Value    value.Value
	Children []*ExplainNode
}

// String renders the explanation as indented text like `puppet lookup --explain`.
func (n *ExplainNode) String() string {
	var b strings.Builder
	for _, c := range n.Children {
		c.write(&b, 0)
	}
	return b.String()
}

func (n *ExplainNode) write(b *strings.Builder, depth int) {
	indent := strings.Repeat("  ", depth)
	// Continuation lines of a multi-line value get the same indent.
	for _, line := range strings.Split(n.Text, "\n") {
		b.WriteString(indent)
		b.WriteString(line)
		b.WriteByte('\n')
	}
	for _, c := range n.Children {
		c.write(b, depth+1)
	}
}

// explainer builds the tree; a nil explainer ignores everything, so lookups
// without --explain pay nothing but a nil check.
type explainer struct {
	top   ExplainNode
	stack []*ExplainNode
}

func (e *explainer) current() *ExplainNode {
	if len(e.stack) == 0 {
		return &e.top
	}
	return e.stack[len(e.stack)-1]
}

func (e *explainer) push(kind, text string) {
	if e == nil {
		return
	}
	n := &ExplainNode{Kind: kind, Text: text}
	cur := e.current()
	cur.Children = append(cur.Children, n)
	e.stack = append(e.stack, n)
}

func (e *explainer) pop() {
	if e == nil {
		return
	}
	e.stack = e.stack[:len(e.stack)-1]
}

func (e *explainer) add(kind, text string, v value.Value) {
	if e == nil {
		return
	}
	cur := e.current()
	cur.Children = append(cur.Children, &ExplainNode{Kind: kind, Text: text, Value: v})
}

func (e *explainer) root() *ExplainNode {
	if e == nil {
		return nil
	}
	return &e.top
}

// explainValue formats a value as Puppet's explanations do: strings quoted,
// collections spread over lines with `=>`.
func explainValue(v value.Value) string {
	var b strings.Builder
	writeExplainValue(&b, v, "")
	return b.String()
}

func writeExplainValue(b *strings.Builder, v value.Value, indent string) {
	switch v := v.(type) {
	case value.String:
		b.WriteString(strconv.Quote(string(v)))
	case value.Array:
		if len(v) == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteString("[\n")
		for i, e := range v {
			b.WriteString(indent + "  ")
			writeExplainValue(b, e, indent+"  ")
			if i < len(v)-1 {
				b.WriteByte(',')
			}
			b.WriteByte('\n')
		}
		b.WriteString(indent + "]")
	case *value.Hash:
		if v.Len() == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteString("{\n")
		for i := 0; i < v.Len(); i++ {
			k, e := v.At(i)
			b.WriteString(indent + "  ")
			writeExplainValue(b, k, indent+"  ")
			b.WriteString(" => ")
			writeExplainValue(b, e, indent+"  ")
			if i < v.Len()-1 {
				b.WriteByte(',')
			}
			b.WriteByte('\n')
		}
		b.WriteString(indent + "}")
	case *value.Sensitive:
		b.WriteString("Sensitive [value redacted]")
	default:
		if value.IsUndef(v) {
			b.WriteString("nil")
			return
		}
		b.WriteString(value.ToString(v))
	}
}
