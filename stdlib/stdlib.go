// Package stdlib implements the Ruby functions of puppetlabs-stdlib 8.5 (the
// version Debian ships) in Go, so manifests that call pick(), validate_*(),
// ensure_packages() and the like compile without Ruby.
//
// Most stdlib functions use Puppet's old 3.x function API. Puppet calls
// those with converted arguments: an undef argument arrives as the empty
// string (undef nested in an array or hash stays nil), a Regexp arrives as
// its source in slashes. legacy() applies that conversion, so the
// implementations here see exactly what the Ruby code sees, and messages
// that show Ruby values use Ruby's notation (see ruby.go).
//
// Puppet's own 4.x functions win over 3.x functions of the same name, so
// the stdlib versions of join, empty, flatten, keys, values, size, sort,
// unique, upcase, downcase, capitalize, strip, chomp, ... are never called
// and are not part of Functions().
//
// What the compile provides: functions.Ctx.Services (functions.Services)
// answers the catalog functions (ensure_*, defined_with_params, getparam,
// stdlib::str2resource), modules, deprecations and function existence; resources are
// declared through the evaluator's host as create_resources calls; facts
// come from $facts and the legacy fact variables of top scope; and
// assert_private compares $module_name with $caller_module_name.
//
// Regular expressions are compiled on first use (sync.OnceValue): a compile
// uses few of them, and a one-off process would otherwise pay for all of
// them at start.
package stdlib

import (
	"fmt"
	"strings"

	"github.com/marionette-dev/marionette/functions"
	"github.com/marionette-dev/marionette/value"
)

// Functions returns a new table of every stdlib function implemented here,
// under the names manifests call them by.
func Functions() functions.Table {
	t := functions.Table{}
	addCollections(t)
	addStrings(t)
	addValidators(t)
	addCatalog(t)
	addRandom(t)
	addUnseeded(t)
	addX509(t)
	addFiles(t)
	addData(t)
	t["parsehocon"] = parseHOCON("parsehocon")
	addExtras(t)
	addFactsAndFormats(t)
	addLegacyOddities(t)
	addCrypt(t)
	return t
}

// legacy wraps a function written against the 3.x API: top-level undef
// arguments become "" and Regexps become their "/source/" form, as
// Puppet's Runtime3FunctionArgumentConverter does.
func legacy(impl functions.Func) functions.Func {
	return func(c *functions.Ctx, args []value.Value) (value.Value, error) {
		return impl(c, legacyArgs(args))
	}
}

// legacyStatement wraps a 3.x function declared as a statement: Puppet
// discards whatever it returns.
func legacyStatement(impl functions.Func) functions.Func {
	return func(c *functions.Ctx, args []value.Value) (value.Value, error) {
		if _, err := impl(c, legacyArgs(args)); err != nil {
			return nil, err
		}
		return value.Undef, nil
	}
}

func legacyArgs(args []value.Value) []value.Value {
	out := make([]value.Value, len(args))
	for i, a := range args {
		if value.IsUndef(a) {
			out[i] = value.String("")
		} else {
			out[i] = regexpsToStrings(a)
		}
	}
	return out
}

// regexpsToStrings replaces Regexps, also inside arrays and hashes, by
// their "/source/" form.
func regexpsToStrings(v value.Value) value.Value {
	switch v := v.(type) {
	case *value.Regexp:
		return value.String("/" + v.Source + "/")
	case value.Array:
		out := make(value.Array, len(v))
		for i, e := range v {
			out[i] = regexpsToStrings(e)
		}
		return out
	case *value.Hash:
		out := value.NewHashBuilder(v.Len())
		for i := range v.Len() {
			k, e := v.At(i)
			out.Set(regexpsToStrings(k), regexpsToStrings(e))
		}
		return out.Build()
	}
	return v
}

// errorf builds the error of a failing function; the compiler adds the
// "Error while evaluating a Function Call, " prefix and the position.
// parameterError is a call of function that param rejects (why), worded
// as Puppet's dispatcher does: "'NAME' parameter 'PARAM' expects ...".
func parameterError(function, param, why string) error {
	return functions.NewArgumentError(function, func(name string) string {
		return "'" + name + "' parameter '" + param + "' " + why
	})
}

func errorf(format string, args ...any) error {
	return fmt.Errorf(format, args...)
}

// rubyErrorf is errorf for an error the function's Ruby raises as an
// exception of a class of its own (a parser's), not Puppet::ParseError:
// the class is what Ruby callers and tests see (ruby.RescuableError).
func rubyErrorf(class, format string, args ...any) error {
	return &classedError{class: class, msg: fmt.Sprintf(format, args...)}
}

type classedError struct{ class, msg string }

func (e *classedError) Error() string     { return e.msg }
func (e *classedError) RubyClass() string { return e.class }

// isEmptyString reports whether v is "" (what undef turns into for 3.x
// functions).
func isEmptyString(v value.Value) bool {
	s, ok := v.(value.String)
	return ok && s == ""
}

// arg returns args[i], or Ruby's nil (undef) past the end, as Ruby's
// args[i] does.
func arg(args []value.Value, i int) value.Value {
	if i < len(args) {
		return args[i]
	}
	return value.Undef
}

// arity wraps a 4.x function that checks only how many arguments it gets
// (its types itself, with stdlib's own messages): a wrong count fails with
// Puppet's message, "'name' expects 2 arguments, got none".
func arity(name string, lo, hi int, impl functions.Func) functions.Func {
	return functions.Dispatch(name, functions.Arity(lo, hi, impl))
}

// describeArg explains why v does not match a 4.x function parameter of
// type expected, the way Puppet's mismatch describer words it for the
// simple types stdlib's signatures use: "expects an Integer[1] value, got
// Integer[0, 0]", "expects a value of type String, Array, or Hash, got
// Integer". The actual type is detailed when it is of an expected kind
// (strings excepted), else generalized, and the expected types are then
// shown by name only.
func describeArg(expected value.Type, v value.Value) string {
	alternatives := []value.Type{expected}
	if vt, ok := expected.(*value.VariantType); ok {
		alternatives = vt.Types
	}
	actual := value.TypeOf(v)
	sameKind := false
	for _, t := range alternatives {
		if t.TypeName() == actual.TypeName() {
			sameKind = true
		}
	}
	names := make([]string, len(alternatives))
	for i, t := range alternatives {
		names[i] = value.TypeString(t)
		if !sameKind {
			names[i] = t.TypeName()
		}
	}
	got := describeType(v)
	if sameKind {
		if _, isString := v.(value.String); !isString {
			got = value.TypeString(actual)
		}
	}
	if len(names) == 1 {
		article := "a "
		if strings.ContainsRune("AEIOU", rune(names[0][0])) {
			article = "an "
		}
		return "expects " + article + names[0] + " value, got " + got
	}
	list := names[0] + " or " + names[1]
	if len(names) > 2 {
		list = strings.Join(names[:len(names)-1], ", ") + ", or " + names[len(names)-1]
	}
	return "expects a value of type " + list + ", got " + got
}
