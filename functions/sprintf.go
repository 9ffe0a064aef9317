package functions

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/marionette-dev/marionette/value"
)

// sprintfFunc is Puppet's sprintf, a 3.x function that hands its arguments
// to Ruby's Kernel#sprintf; %<name>s and %{name} take their values from a
// single hash argument.
func sprintfFunc(c *Ctx, args []value.Value) (value.Value, error) {
	if c.lambda() != nil {
		return nil, errors.New("sprintf(): does not accept a block")
	}
	if err := Arity3("sprintf", args, 1, true); err != nil {
		return nil, err
	}
	format, ok := args[0].(value.String)
	if !ok {
		return nil, fmt.Errorf("no implicit conversion of %s into String", rubyTypeForError(args[0]))
	}
	s, err := rubySprintf(string(format), args[1:])
	if err != nil {
		return nil, err
	}
	return value.String(s), nil
}

// fmtSpec is one parsed conversion specification.
type fmtSpec struct {
	minus, plus, space, zero, sharp bool
	width, prec                     int // -1 when absent
}

// rubySprintf formats like Ruby's Kernel#sprintf with Puppet values as
// arguments.
func rubySprintf(format string, args []value.Value) (string, error) {
	var out strings.Builder
	next := 0      // next sequential argument
	numbered := -1 // -1: undecided, 0: sequential, 1: positional/named
	nextArg := func() (value.Value, error) {
		if numbered == 1 {
			return nil, fmt.Errorf("unnumbered(%d) mixed with numbered", next+1)
		}
		numbered = 0
		if next >= len(args) {
			return nil, errors.New("too few arguments")
		}
		next++
		return args[next-1], nil
	}
	namedArg := func(name string) (value.Value, error) {
		if numbered == 0 {
			return nil, fmt.Errorf("named<%s> after unnumbered(%d)", name, next)
		}
		numbered = 1
		if len(args) != 1 {
			return nil, errors.New("one hash required")
		}
		h, ok := args[0].(*value.Hash)
		if !ok {
			return nil, errors.New("one hash required")
		}
		v, ok := h.GetString(name)
		if !ok {
			return nil, fmt.Errorf("key<%s> not found", name)
		}
		return v, nil
	}
	for i := 0; i < len(format); i++ {
		ch := format[i]
		if ch != '%' {
			out.WriteByte(ch)
			continue
		}
		start := i
		i++
		spec := fmtSpec{width: -1, prec: -1}
		var arg value.Value
		haveArg := false
	flags:
		for ; i < len(format); i++ {
			switch format[i] {
			case '-':
				spec.minus = true
			case '+':
				spec.plus = true
			case ' ':
				spec.space = true
			case '0':
				spec.zero = true
			case '#':
				spec.sharp = true
			case '<', '{':
				closer := byte('>')
				if format[i] == '{' {
					closer = '}'
				}
				end := strings.IndexByte(format[i+1:], closer)
				if end < 0 {
					return "", fmt.Errorf("malformed name - unmatched parenthesis")
				}
				name := format[i+1 : i+1+end]
				v, err := namedArg(name)
				if err != nil {
					return "", err
				}
				i += end + 1
				if closer == '}' {
					// %{name} substitutes the value's to_s, ignoring any
					// further conversion.
					out.WriteString(padString(value.RubyString(v), spec))
					goto done
				}
				arg, haveArg = v, true
			case '*':
				w, err := nextArg()
				if err != nil {
					return "", err
				}
				n, ok := w.(value.Integer)
				if !ok {
					return "", fmt.Errorf("can't convert %s into Integer", value.RubyClass(w))
				}
				if n < 0 {
					spec.minus = true
					n = -n
				}
				spec.width = int(min(n, 1<<20))
			default:
				if format[i] >= '1' && format[i] <= '9' {
					j := i
					for j < len(format) && format[j] >= '0' && format[j] <= '9' {
						j++
					}
					n, _ := strconv.Atoi(format[i:j])
					if j < len(format) && format[j] == '$' {
						if numbered == 0 {
							return "", fmt.Errorf("numbered(%d) after unnumbered(%d)", n, next)
						}
						numbered = 1
						if n > len(args) {
							return "", errors.New("too few arguments")
						}
						arg, haveArg = args[n-1], true
						i = j
						continue
					}
					if n > 1<<20 {
						return "", errors.New("width too big")
					}
					spec.width = n
					i = j - 1
					continue
				}
				break flags
			}
		}
		if i < len(format) && format[i] == '.' {
			i++
			j := i
			for j < len(format) && format[j] >= '0' && format[j] <= '9' {
				j++
			}
			n, _ := strconv.Atoi(format[i:j])
			if n > 1<<20 {
				return "", errors.New("precision too big")
			}
			spec.prec = n
			i = j
		}
		if i >= len(format) {
			return "", errors.New("incomplete format specifier; use %% (double %) instead")
		}
		if format[i] == '%' {
			out.WriteByte('%')
			continue
		}
		if !strings.ContainsRune("bBdiuoxXeEfgGaAscp", rune(format[i])) {
			return "", fmt.Errorf("malformed format string - %s", format[start:i+1])
		}
		if !haveArg {
			v, err := nextArg()
			if err != nil {
				return "", err
			}
			arg = v
		}
		{
			s, err := formatOne(format[i], spec, arg)
			if err != nil {
				return "", err
			}
			out.WriteString(s)
		}
	done:
	}
	return out.String(), nil
}

func formatOne(verb byte, spec fmtSpec, arg value.Value) (string, error) {
	switch verb {
	case 's', 'p':
		s := value.RubyString(arg)
		if verb == 'p' {
			s = value.RubyInspect(arg)
		}
		if spec.prec >= 0 && utf8.RuneCountInString(s) > spec.prec {
			s = string([]rune(s)[:spec.prec])
		}
		return padString(s, spec), nil
	case 'c':
		var s string
		switch v := arg.(type) {
		case value.Integer:
			if v < 0 || v > utf8.MaxRune {
				return "", fmt.Errorf("%d out of char range", v)
			}
			s = string(rune(v))
		case value.String:
			if utf8.RuneCountInString(string(v)) != 1 {
				return "", errors.New("%c requires a character")
			}
			s = string(v)
		default:
			return "", fmt.Errorf("can't convert %s into Integer", rubyTypeForError(arg))
		}
		return padString(s, spec), nil
	case 'd', 'i', 'u', 'x', 'X', 'o', 'b', 'B':
		n, err := rubyIntegerArg(arg)
		if err != nil {
			return "", err
		}
		return formatInteger(verb, spec, n), nil
	}
	f, err := rubyFloatArg(arg)
	if err != nil {
		return "", err
	}
	return formatFloat(verb, spec, f), nil
}

func padString(s string, spec fmtSpec) string {
	n := utf8.RuneCountInString(s)
	if spec.width <= n {
		return s
	}
	pad := strings.Repeat(" ", spec.width-n)
	if spec.minus {
		return s + pad
	}
	return pad + s
}

// rubyTypeForError names a value in Ruby's "can't convert X into Integer".
func rubyTypeForError(v value.Value) string {
	switch v {
	case value.True:
		return "true"
	case value.False:
		return "false"
	}
	if value.IsUndef(v) {
		return "nil"
	}
	return value.RubyClass(v)
}

// rubyIntegerArg converts an argument as Ruby's sprintf does for %d.
func rubyIntegerArg(arg value.Value) (*big.Int, error) {
	switch v := arg.(type) {
	case value.Integer:
		return big.NewInt(int64(v)), nil
	case value.Float:
		f := float64(v)
		if math.IsInf(f, 0) || math.IsNaN(f) {
			return nil, errors.New(value.FormatFloat(f))
		}
		bf := new(big.Float).SetFloat64(math.Trunc(f))
		n, _ := bf.Int(nil)
		return n, nil
	case value.String:
		if n, ok := parseRubyInteger(trimRubySpace(string(v)), 0); ok {
			return big.NewInt(n), nil
		}
		return nil, fmt.Errorf("invalid value for Integer(): %s", value.RubyInspect(v))
	}
	return nil, fmt.Errorf("can't convert %s into Integer", rubyTypeForError(arg))
}

// rubyFloatArg converts an argument as Ruby's sprintf does for %f.
func rubyFloatArg(arg value.Value) (float64, error) {
	switch v := arg.(type) {
	case value.Integer:
		return float64(v), nil
	case value.Float:
		return float64(v), nil
	case value.String:
		if f, ok := floatFromString(string(v)); ok {
			return f, nil
		}
		return 0, fmt.Errorf("invalid value for Float(): %s", value.RubyInspect(v))
	}
	return 0, fmt.Errorf("can't convert %s into Float", rubyTypeForError(arg))
}

// formatInteger renders an integer conversion; negative numbers in base 2,
// 8 and 16 without a sign flag use Ruby's two's complement form ("..f01").
func formatInteger(verb byte, spec fmtSpec, n *big.Int) string {
	base := 10
	prefix := ""
	switch verb {
	case 'x', 'X':
		base = 16
		if spec.sharp {
			prefix = "0" + string(verb)
		}
	case 'o':
		base = 8
		if spec.sharp {
			prefix = "0"
		}
	case 'b', 'B':
		base = 2
		if spec.sharp {
			prefix = "0" + string(verb)
		}
	}
	sign := ""
	var digits string
	switch {
	case n.Sign() < 0 && base != 10 && !spec.plus && !spec.space:
		digits = ".." + twosComplement(n, base)
	case n.Sign() < 0:
		sign = "-"
		digits = new(big.Int).Neg(n).Text(base)
	default:
		if spec.plus {
			sign = "+"
		} else if spec.space {
			sign = " "
		}
		digits = n.Text(base)
	}
	if verb == 'X' {
		digits = strings.ToUpper(digits)
	}
	if n.Sign() == 0 {
		// C prints no prefix for zero, and no digits at all with precision 0.
		prefix = ""
		if spec.prec == 0 {
			digits = ""
		}
	}
	if spec.prec >= 0 && len(digits) < spec.prec {
		digits = strings.Repeat("0", spec.prec-len(digits)) + digits
	}
	body := sign + prefix + digits
	if spec.width > len(body) {
		switch {
		case spec.minus:
			body += strings.Repeat(" ", spec.width-len(body))
		case spec.zero && spec.prec < 0:
			body = sign + prefix + strings.Repeat("0", spec.width-len(body)) + digits
		default:
			body = strings.Repeat(" ", spec.width-len(body)) + body
		}
	}
	return body
}

// twosComplement gives the digits of negative n in two's complement with
// one leading all-ones digit, as Ruby prints it after "..".
func twosComplement(n *big.Int, base int) string {
	b := big.NewInt(int64(base))
	pow := new(big.Int).Set(b)
	for k := 1; k < 4096; k++ {
		m := new(big.Int).Add(pow, n)
		if m.Sign() >= 0 {
			// The leading digit must be the largest one (all ones).
			lead := new(big.Int).Div(pow, b)
			lead.Mul(lead, big.NewInt(int64(base-1)))
			if m.Cmp(lead) >= 0 {
				s := m.Text(base)
				return strings.Repeat("0", k-len(s)) + s
			}
		}
		pow.Mul(pow, b)
	}
	return n.Text(base)
}

// formatFloat renders e, f, g, a conversions as C's printf does.
func formatFloat(verb byte, spec fmtSpec, f float64) string {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		s := "Inf"
		if math.IsNaN(f) {
			s = "NaN"
		}
		switch {
		case math.IsInf(f, -1):
			s = "-" + s
		case spec.plus:
			s = "+" + s
		case spec.space:
			s = " " + s
		}
		return padString(s, fmtSpec{width: spec.width, minus: spec.minus})
	}
	var flags strings.Builder
	flags.WriteByte('%')
	for _, fl := range []struct {
		on bool
		c  byte
	}{{spec.minus, '-'}, {spec.plus, '+'}, {spec.space, ' '}, {spec.zero, '0'}, {spec.sharp, '#'}} {
		if fl.on {
			flags.WriteByte(fl.c)
		}
	}
	if spec.width >= 0 {
		flags.WriteString(strconv.Itoa(spec.width))
	}
	prec := spec.prec
	if prec < 0 && verb != 'a' && verb != 'A' {
		prec = 6
	}
	if verb == 'a' || verb == 'A' {
		return hexFloat(verb, spec, f)
	}
	if (verb == 'g' || verb == 'G') && prec == 0 {
		prec = 1
	}
	flags.WriteString("." + strconv.Itoa(prec))
	flags.WriteByte(verb)
	return fmt.Sprintf(flags.String(), f)
}

// hexFloat renders %a like C: 0x1.8p+1.
func hexFloat(verb byte, spec fmtSpec, f float64) string {
	s := strconv.FormatFloat(f, 'x', spec.prec, 64)
	// Go writes the exponent with at least two digits; C uses the minimum.
	if i := strings.LastIndexAny(s, "+-"); i > 0 && s[i-1] == 'p' {
		exp := strings.TrimLeft(s[i+1:], "0")
		if exp == "" {
			exp = "0"
		}
		s = s[:i+1] + exp
	}
	if verb == 'A' {
		s = strings.ToUpper(s)
	}
	if spec.plus && f >= 0 {
		s = "+" + s
	} else if spec.space && f >= 0 {
		s = " " + s
	}
	return padString(s, spec)
}
