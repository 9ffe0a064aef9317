package functions

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/marionette-dev/marionette/value"
)

// String.new's formats: one "%<flags><width>.<prec><letter>" applied to a
// value, with letters whose meaning depends on the value's type (Puppet's
// StringConverter). Formats given as a hash per type are not supported.

// stringFormatPattern is what a format must look like.
var stringFormatPattern = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^%([\s\[+#0{<(|-]*)([1-9][0-9]*)?(?:\.([0-9]+))?([a-zA-Z])$`)
})

// stringFormat is a parsed String.new format.
type stringFormat struct {
	orig        string
	left, alt   bool
	width, prec string // as written, "" when absent
	verb        byte
}

func parseStringFormat(f string) (*stringFormat, error) {
	m := stringFormatPattern().FindStringSubmatch(f)
	if m == nil {
		return nil, fmt.Errorf("The format '%s' is not a valid format on the form '%%<flags><width>.<prec><format>'", f)
	}
	for i := 0; i < len(m[1]); i++ {
		if strings.IndexByte(m[1][i+1:], m[1][i]) >= 0 {
			return nil, fmt.Errorf("The same flag can only be used once, got '%s'", f)
		}
	}
	return &stringFormat{orig: f, left: strings.Contains(m[1], "-"), alt: strings.Contains(m[1], "#"),
		width: m[2], prec: m[3], verb: m[4][0]}, nil
}

// withVerb is the format with its letter replaced.
func (f *stringFormat) withVerb(verb byte) string {
	return f.orig[:len(f.orig)-1] + string(verb)
}

// pad applies only the width, precision and left flag, as Puppet does for
// formats whose letter is not a printf conversion.
func (f *stringFormat) pad(s string) (string, error) {
	if !f.left && f.width == "" && f.prec == "" {
		return s, nil
	}
	spec := "%"
	if f.left {
		spec += "-"
	}
	spec += f.width
	if f.prec != "" {
		spec += "." + f.prec
	}
	return rubySprintf(spec+"s", []value.Value{value.String(s)})
}

func formatError(typeName string, verb byte, allowed string) error {
	return fmt.Errorf("Illegal format '%c' specified for value of %s type - expected one of the characters '%s'", verb, typeName, allowed)
}

// formatValue renders v as String.new does, with a format or (when format
// is empty) with the default ones: strings as they are, integers in
// decimal, floats with %f, collections as Puppet literals.
func formatValue(v value.Value, format string) (string, error) {
	if format == "" {
		switch v := v.(type) {
		case value.String:
			return string(v), nil
		case value.Integer:
			return strconv.FormatInt(int64(v), 10), nil
		case value.Float:
			return rubySprintf("%f", []value.Value{v})
		case value.Array, *value.Hash:
			return puppetLiteral(v), nil
		case *value.Regexp:
			return v.Source, nil
		}
		return value.ToString(v), nil
	}
	f, err := parseStringFormat(format)
	if err != nil {
		return "", err
	}
	one := func(format string, arg value.Value) (string, error) {
		return rubySprintf(format, []value.Value{arg})
	}
	switch v := v.(type) {
	case value.String:
		s := string(v)
		var conv func(string) string
		switch f.verb {
		case 's':
			return one(f.orig, v)
		case 'p':
			if f.alt {
				return f.pad(puppetDoubleQuote(s))
			}
			return f.pad(puppetQuote(s))
		case 'c':
			conv = rubyCapitalize
		case 'C':
			conv = func(s string) string {
				segs := strings.Split(s, "::")
				for i, seg := range segs {
					segs[i] = rubyCapitalize(seg)
				}
				return strings.Join(segs, "::")
			}
		case 'u':
			conv = rubyUpcase
		case 'd':
			conv = rubyDowncase
		case 't':
			conv = func(s string) string { return rubyRstrip(rubyLstrip(s)) }
		default:
			return "", formatError("String", f.verb, "cCudspt")
		}
		if f.alt {
			return f.pad(puppetQuote(conv(s)))
		}
		return one(f.withVerb('s'), value.String(conv(s)))
	case value.Integer:
		switch f.verb {
		case 'd', 'x', 'X', 'o', 'b', 'B', 'p':
			return one(f.orig, v)
		case 'e', 'E', 'f', 'g', 'G', 'a', 'A':
			return one(f.orig, value.Float(v))
		case 'c':
			if v < 0 || v > 0x10FFFF {
				return "", fmt.Errorf("pack(U): value out of range")
			}
			char := string(rune(v))
			if f.alt {
				char = `"` + char + `"`
			}
			return one(f.withVerb('s'), value.String(char))
		case 's':
			verb := byte('s')
			if f.alt {
				verb = 'p'
			}
			return one(f.withVerb(verb), value.String(strconv.FormatInt(int64(v), 10)))
		}
		return "", formatError("Integer", f.verb, "dxXobBeEfgGaAspc")
	case value.Float:
		switch f.verb {
		case 'd', 'x', 'X', 'o', 'b', 'B':
			n, err := integerFrom(v, 0)
			if err != nil {
				return "", err
			}
			return one(f.orig, value.Integer(n))
		case 'e', 'E', 'f', 'g', 'G', 'a', 'A', 'p':
			return one(f.orig, v)
		case 's':
			s := value.FormatFloat(float64(v))
			if f.alt {
				s = `"` + s + `"`
			}
			return one(f.orig, value.String(s))
		}
		return "", formatError("Float", f.verb, "dxXobBeEfgGaAsp")
	case value.Boolean:
		word := func(t, fl string) string {
			if !v {
				t = fl
			}
			if f.alt {
				return t[:1]
			}
			return t
		}
		switch f.verb {
		case 't':
			return f.pad(word("true", "false"))
		case 'T':
			return f.pad(word("True", "False"))
		case 'y':
			return f.pad(word("yes", "no"))
		case 'Y':
			return f.pad(word("Yes", "No"))
		case 'd', 'x', 'X', 'o', 'b', 'B':
			n := value.Integer(0)
			if v {
				n = 1
			}
			return formatValue(n, format)
		case 'e', 'E', 'f', 'g', 'G', 'a', 'A':
			n := value.Float(0)
			if v {
				n = 1
			}
			return formatValue(n, format)
		case 's', 'p':
			return f.pad(strconv.FormatBool(bool(v)))
		}
		return "", formatError("Boolean", f.verb, "tTyYdxXobBeEfgGaAsp")
	case *value.Regexp:
		switch f.verb {
		case 'p':
			lit := value.Literal(v)
			if f.orig == "%p" {
				return lit, nil
			}
			return one(f.withVerb('s'), value.String(lit))
		case 's':
			s := v.Source
			if f.alt {
				s = puppetQuote(s)
			}
			if f.orig == "%s" {
				return s, nil
			}
			return one(f.orig, value.String(s))
		}
		return "", formatError("Regexp", f.verb, "sp")
	case value.Array:
		switch f.verb {
		case 'a', 's', 'p':
			return puppetLiteral(v), nil
		}
		return "", formatError("Array", f.verb, "asp")
	case *value.Hash:
		switch f.verb {
		case 'h', 's', 'p':
			return puppetLiteral(v), nil
		case 'a':
			pairs := make(value.Array, v.Len())
			for i := 0; i < v.Len(); i++ {
				k, e := v.At(i)
				pairs[i] = value.Array{k, e}
			}
			return puppetLiteral(pairs), nil
		}
		return "", formatError("Hash", f.verb, "hasp")
	}
	if value.IsUndef(v) {
		var s string
		switch f.verb {
		case 'n':
			s = map[bool]string{false: "nil", true: "null"}[f.alt]
		case 'u':
			s = map[bool]string{false: "undef", true: "undefined"}[f.alt]
		case 'd', 'x', 'X', 'o', 'b', 'B', 'e', 'E', 'f', 'g', 'G', 'a', 'A':
			s = "NaN"
		case 'v':
			s = "n/a"
		case 'V':
			s = "N/A"
		case 's':
			s = map[bool]string{false: "", true: `""`}[f.alt]
		case 'p':
			s = map[bool]string{false: "undef", true: `"undef"`}[f.alt]
		default:
			return "", formatError("Undef", f.verb, "nudxXobBeEfgGaAvVsp")
		}
		return f.pad(s)
	}
	if value.IsDefault(v) {
		switch f.verb {
		case 'd', 's', 'p':
			return f.pad(map[bool]string{false: "default", true: `"default"`}[f.alt])
		case 'D':
			return f.pad(map[bool]string{false: "Default", true: `"Default"`}[f.alt])
		}
		return "", formatError("Default", f.verb, "dDsp")
	}
	if _, ok := v.(*value.Sensitive); ok {
		return "", errors.New("Sensitive values cannot be formatted")
	}
	return one(f.orig, value.String(value.ToString(v)))
}
