package stdlib

import (
	"errors"
	"os"
	"strings"

	"github.com/marionette-dev/marionette/dataformat"
	"github.com/marionette-dev/marionette/functions"
	"github.com/marionette-dev/marionette/psych"
	"github.com/marionette-dev/marionette/value"
)

func addData(t functions.Table) {
	t["to_json"] = arity("to_json", 1, 1, toJSON)
	t["to_json_pretty"] = arity("to_json_pretty", 1, 3, toJSONPretty)
	t["to_yaml"] = arity("to_yaml", 1, 2, toYAML)
	t["parsejson"] = legacy(parseJSONFunc)
	t["parseyaml"] = legacy(parseYAMLFunc)
	t["loadjson"] = legacy(loadFile("loadjson", parseJSON))
	t["loadyaml"] = legacy(loadFile("loadyaml", func(b []byte) (value.Value, error) { return dataformat.FromYAML(b, "") }))
}

// ---- JSON, as Ruby's JSON.generate and JSON.pretty_generate write it: see
// dataformat.WriteJSON.

func toJSON(c *functions.Ctx, args []value.Value) (value.Value, error) {
	text, err := dataformat.WriteJSON(args[0], dataformat.JSONStyle{})
	if err != nil {
		return nil, err
	}
	return value.String(text), nil
}

func toJSONPretty(c *functions.Ctx, args []value.Value) (value.Value, error) {
	data := args[0]
	switch data.(type) {
	case value.Array, *value.Hash:
	default:
		return nil, parameterError("to_json_pretty", "data", "expects a value of type Hash or Array, got "+describeType(data))
	}
	skipUndef := false
	if len(args) > 1 && !value.IsUndef(args[1]) {
		b, ok := args[1].(value.Boolean)
		if !ok {
			return nil, parameterError("to_json_pretty", "skip_undef", "expects a value of type Undef or Boolean, got "+describeType(args[1]))
		}
		skipUndef = bool(b)
	}
	st := dataformat.PrettyJSON()
	if len(args) > 2 && !value.IsUndef(args[2]) {
		opts, ok := args[2].(*value.Hash)
		if !ok {
			return nil, parameterError("to_json_pretty", "opts", "expects a Struct value, got "+describeType(args[2]))
		}
		for _, o := range []struct {
			key string
			dst *string
		}{{"indent", &st.Indent}, {"space", &st.Space}, {"space_before", &st.SpaceBefore}, {"object_nl", &st.ObjectNL}, {"array_nl", &st.ArrayNL}} {
			if v, ok := opts.GetString(o.key); ok {
				if s, ok := v.(value.String); ok {
					*o.dst = string(s)
				}
			}
		}
	}
	if skipUndef {
		data = withoutUndef(data)
	}
	text, err := dataformat.WriteJSON(data, st)
	if err != nil {
		return nil, err
	}
	return value.String(text + "\n"), nil
}

// withoutUndef drops the undef elements (or entries) of the top-level
// array (or hash).
func withoutUndef(v value.Value) value.Value {
	switch v := v.(type) {
	case value.Array:
		out := value.Array{}
		for _, e := range v {
			if !value.IsUndef(e) {
				out = append(out, e)
			}
		}
		return out
	case *value.Hash:
		out := value.NewHashBuilder(v.Len())
		for i := range v.Len() {
			k, e := v.At(i)
			if !value.IsUndef(e) {
				out.Set(k, e)
			}
		}
		return out.Build()
	}
	return v
}

// parseJSON reads a JSON document into Puppet values, keeping the order of
// object keys.
func parseJSON(data []byte) (value.Value, error) {
	v, err := dataformat.FromJSON(data, "json")
	if err != nil {
		// Ruby's parser reports the text where parsing failed (the number
		// is a line of its grammar, fixed for this message).
		return nil, rubyErrorf("Puppet::Util::Json::ParseError", "859: unexpected token at '%s'", strings.TrimSpace(string(data)))
	}
	return v, nil
}

// parseWithDefault is the shared shape of parsejson and parseyaml: a
// falsy result gives the default, and a parse error does too when a
// default is given.
func parseWithDefault(args []value.Value, parse func([]byte) (value.Value, error)) (value.Value, error) {
	if err := functions.CountArgs(args, 1, -1, "Wrong number of arguments. 1 or 2 arguments should be provided."); err != nil {
		return nil, err
	}
	dflt := arg(args, 1)
	s, ok := args[0].(value.String)
	if !ok {
		if value.Truthy(dflt) {
			return dflt, nil
		}
		return nil, errorf("no implicit conversion of %s into String", value.RubyClass(args[0]))
	}
	v, err := parse([]byte(s))
	if err != nil {
		if value.Truthy(dflt) {
			return dflt, nil
		}
		return nil, err
	}
	if !value.Truthy(v) {
		return dflt, nil
	}
	return v, nil
}

func parseJSONFunc(c *functions.Ctx, args []value.Value) (value.Value, error) {
	return parseWithDefault(args, parseJSON)
}

func parseYAMLFunc(c *functions.Ctx, args []value.Value) (value.Value, error) {
	return parseWithDefault(args, func(b []byte) (value.Value, error) {
		v, err := dataformat.FromYAML(b, "<unknown>")
		var ye *dataformat.YAMLError
		if errors.As(err, &ye) {
			return nil, rubyErrorf("Psych::SyntaxError", "(<unknown>): %s", ye.Msg)
		}
		return v, err
	})
}

// loadFile builds loadjson and loadyaml for local files; URLs are not
// fetched (a compile must not depend on the network), so they behave as
// missing files.
func loadFile(name string, parse func([]byte) (value.Value, error)) functions.Func {
	return func(c *functions.Ctx, args []value.Value) (value.Value, error) {
		if err := functions.Arity3(name, args, 1, true); err != nil {
			return nil, err
		}
		path := value.RubyString(args[0])
		functions.NoteUntracked(c, name+"()")
		dflt := arg(args, 1)
		data, err := os.ReadFile(path)
		if err != nil {
			warn(c, "Can't load '%s' File does not exist!", path)
			return dflt, nil
		}
		v, err := parse(data)
		if err != nil {
			if value.Truthy(dflt) {
				return dflt, nil
			}
			return nil, err
		}
		if !value.Truthy(v) {
			return dflt, nil
		}
		return v, nil
	}
}

// ---- YAML, as Ruby's Psych writes it (Object#to_yaml): see dataformat.YAML.

func toYAML(c *functions.Ctx, args []value.Value) (value.Value, error) {
	if len(args) == 2 {
		if _, ok := args[1].(*value.Hash); !ok {
			return nil, parameterError("to_yaml", "options", "expects a Hash value, got "+describeType(args[1]))
		}
	}
	var opts psych.Options
	if len(args) == 2 {
		var err error
		if opts, err = yamlOptions(args[1].(*value.Hash)); err != nil {
			return nil, err
		}
	}
	s, err := dataformat.YAMLWith(args[0], opts)
	if errors.Is(err, psych.ErrUnsupported) {
		return nil, errorf("to_yaml: %v (not supported by marionette)", err)
	}
	if err != nil {
		return nil, errorf("%v", err)
	}
	return value.String(s), nil
}

// yamlOptions reads the options to_yaml hands to Psych: indentation and
// line_width change the text; the others that would are refused rather
// than ignored, and keys Psych does not know are ignored, as Psych does.
func yamlOptions(h *value.Hash) (psych.Options, error) {
	var o psych.Options
	for i := range h.Len() {
		k, v := h.At(i)
		name := value.RubyString(k)
		switch name {
		case "indentation", "line_width":
			n, ok := v.(value.Integer)
			if !ok {
				return o, errorf("to_yaml: option %s %s is not supported by marionette", name, value.RubyInspect(v))
			}
			if name == "indentation" {
				o.Indentation = int(n)
			} else {
				o.LineWidth = int(n)
			}
		case "canonical", "header", "version", "stringify_names":
			if value.Truthy(v) {
				return o, errorf("to_yaml: option %s is not supported by marionette", name)
			}
		}
	}
	if o.LineWidth < -1 {
		return o, errorf("Invalid line_width %d, must be non-negative or -1 for unlimited.", o.LineWidth)
	}
	return o, nil
}
