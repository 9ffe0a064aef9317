package compiler

import (
	"fmt"
	"io"

	"github.com/marionette-dev/marionette/value"
)

// WriteKey writes to w what a compile of r starts from besides its facts
// and the files it reads: the node, its classification (classes and their
// parameters, node parameters), $trusted, the server's facts and the
// compile's settings. Two requests that write the same key compile alike
// from the same facts and files; the catalog reuse of `marionette serve`
// and the incremental diff's cache digest it.
func (r *Request) WriteKey(w io.Writer) {
	field := func(name, v string) { fmt.Fprintf(w, "%s=%s\x00", name, v) }
	val := func(name string, v value.Value) { field(name, typedString(v)) }
	field("node", r.Node)
	for _, c := range r.Classes {
		field("class", c.Name)
		if c.Params != nil {
			val("class-params", c.Params)
		}
	}
	if r.Parameters != nil {
		val("parameters", r.Parameters)
	}
	if t := r.Trusted; t != nil {
		field("trusted", t.Authenticated+"\x00"+t.Certname)
		for _, x := range []*value.Hash{t.Extensions, t.External, t.Hash} {
			if x != nil {
				val("trusted-hash", x)
			} else {
				field("trusted-hash", "<nil>")
			}
		}
	} else {
		field("trusted", "<nil>")
	}
	if r.ServerFacts != nil {
		val("server-facts", r.ServerFacts)
	}
	field("flags", fmt.Sprintf("%v %v %v %v %v %v %+v %v %v %q",
		r.FuzzyNodeMatching, r.AnyNodeName, r.Strict, r.StrictVariables, r.KeepExported, r.RichData,
		r.Limits, r.RubyHost != nil, r.Store != nil, r.Capture))
}

// typedString is v's string form with its type: Puppet's string form
// quotes the strings inside a collection, so '1' and 1 differ; the type's
// name tells a top-level one apart.
func typedString(v value.Value) string {
	if v == nil {
		return "<nil>"
	}
	return fmt.Sprintf("%T:%s", v, value.ToString(v))
}
