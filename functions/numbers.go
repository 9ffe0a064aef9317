package functions

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/marionette-dev/marionette/value"
)

func addNumbers(t Table) {
	t["abs"] = Dispatch("abs", Fixed(absImpl, P("val", tNumeric)), Fixed(absImpl, P("val", tString)))
	t["ceiling"] = Dispatch("ceiling",
		Fixed(roundingImpl("ceiling", math.Ceil), P("val", tNumeric)),
		Fixed(roundingImpl("ceiling", math.Ceil), P("val", tString)))
	t["floor"] = Dispatch("floor",
		Fixed(roundingImpl("floor", math.Floor), P("val", tNumeric)),
		Fixed(roundingImpl("floor", math.Floor), P("val", tString)))
	t["round"] = Dispatch("round", Fixed(roundImpl, P("val", tNumeric)))
}

var (
	decimalFloat = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^-?\d+(\.\d+)$`) })
	decimalInt   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^-?\d+$`) })
)

func absImpl(c *Ctx, args []value.Value) (value.Value, error) {
	switch v := args[0].(type) {
	case value.Integer:
		if v == math.MinInt64 {
			return nil, errors.New("abs(): integer overflow")
		}
		if v < 0 {
			return -v, nil
		}
		return v, nil
	case value.Float:
		return value.Float(math.Abs(float64(v))), nil
	case value.String:
		s := string(v)
		switch {
		case decimalFloat().MatchString(s):
			f, err := strconv.ParseFloat(s, 64)
			if err != nil {
				return nil, err
			}
			return value.Float(math.Abs(f)), nil
		case decimalInt().MatchString(s):
			n, err := strconv.ParseInt(s, 10, 64)
			if err != nil {
				return nil, fmt.Errorf("abs(): integer out of range: %s", s)
			}
			return absImpl(c, []value.Value{value.Integer(n)})
		}
	}
	return nil, errors.New("abs(): Requires float or integer to work with - was given non decimal string")
}

// roundingImpl builds ceiling/floor: integers are unchanged, floats and
// numeric strings are rounded to an Integer.
func roundingImpl(name string, round func(float64) float64) Func {
	return func(c *Ctx, args []value.Value) (value.Value, error) {
		var f float64
		switch v := args[0].(type) {
		case value.Integer:
			return v, nil
		case value.Float:
			f = float64(v)
		case value.String:
			n, ok := rubyFloat(string(v))
			if !ok {
				return nil, fmt.Errorf("%s(): cannot convert given value to a floating point value.", name)
			}
			f = n
		}
		return floatToInteger(round(f))
	}
}

func roundImpl(c *Ctx, args []value.Value) (value.Value, error) {
	switch v := args[0].(type) {
	case value.Integer:
		return v, nil
	case value.Float:
		f := float64(v)
		if f > 0 {
			return floatToInteger(math.Trunc(f + 0.5))
		}
		return floatToInteger(math.Trunc(f - 0.5))
	}
	return args[0], nil
}

// floatToInteger converts an integral float to an Integer, failing where
// Puppet's integers (64 bits) cannot hold it.
func floatToInteger(f float64) (value.Value, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return nil, fmt.Errorf("%s cannot be converted to an Integer", value.FormatFloat(f))
	}
	if f < -9.223372036854775808e18 || f >= 9.223372036854775808e18 {
		return nil, fmt.Errorf("integer %s is out of range", strconv.FormatFloat(f, 'f', 0, 64))
	}
	return value.Integer(int64(f)), nil
}

// rubyFloat parses a string the way Ruby's Float() does: decimal, with
// optional exponent, underscores between digits, hex (0x) integers, and
// surrounding whitespace.
func rubyFloat(s string) (float64, bool) {
	t := trimRubySpace(s)
	if t == "" {
		return 0, false
	}
	unsigned := strings.TrimLeft(t, "+-")
	if strings.HasPrefix(unsigned, "0x") || strings.HasPrefix(unsigned, "0X") {
		n, ok := parseRubyInteger(t, 16)
		return float64(n), ok
	}
	if !rubyFloatSyntax().MatchString(t) {
		return 0, false
	}
	f, err := strconv.ParseFloat(stripUnderscores(t), 64)
	if err != nil {
		var ne *strconv.NumError
		if errors.As(err, &ne) && ne.Err == strconv.ErrRange {
			return f, true
		}
		return 0, false
	}
	return f, true
}

var rubyFloatSyntax = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[-+]?\d+(_\d+)*(\.\d+(_\d+)*)?([eE][-+]?\d+(_\d+)*)?$`)
})

func trimRubySpace(s string) string {
	const space = " \t\n\v\f\r"
	i, j := 0, len(s)
	for i < j && indexByte(space, s[i]) {
		i++
	}
	for j > i && (indexByte(space, s[j-1]) || s[j-1] == 0) {
		j--
	}
	return s[i:j]
}

func indexByte(set string, b byte) bool {
	for i := 0; i < len(set); i++ {
		if set[i] == b {
			return true
		}
	}
	return false
}

func stripUnderscores(s string) string {
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] != '_' {
			out = append(out, s[i])
		}
	}
	return string(out)
}

// parseRubyInteger parses an integer literal as Ruby's Integer() does with
// the given radix (0: from the prefix 0x, 0b, 0o or 0 for octal).
func parseRubyInteger(s string, radix int) (int64, bool) {
	neg := false
	switch {
	case len(s) > 0 && s[0] == '-':
		neg, s = true, s[1:]
	case len(s) > 0 && s[0] == '+':
		s = s[1:]
	}
	if s == "" {
		return 0, false
	}
	prefixed := func(p string) bool {
		return len(s) > len(p) && (s[:len(p)] == p || s[:len(p)] == upperASCII(p))
	}
	switch {
	case (radix == 0 || radix == 16) && prefixed("0x"):
		s, radix = s[2:], 16
	case (radix == 0 || radix == 2) && prefixed("0b"):
		s, radix = s[2:], 2
	case (radix == 0 || radix == 8) && prefixed("0o"):
		s, radix = s[2:], 8
	case radix == 0 && len(s) > 1 && s[0] == '0':
		s, radix = s[1:], 8
	case radix == 0:
		radix = 10
	}
	if s == "" || s[0] == '_' || s[len(s)-1] == '_' {
		return 0, false
	}
	for i := 1; i < len(s); i++ {
		if s[i] == '_' && s[i-1] == '_' {
			return 0, false
		}
	}
	u, err := strconv.ParseUint(stripUnderscores(s), radix, 64)
	if err != nil {
		return 0, false
	}
	if neg {
		if u > 1<<63 {
			return 0, false
		}
		return -int64(u), true
	}
	if u > math.MaxInt64 {
		return 0, false
	}
	return int64(u), true
}

func upperASCII(s string) string {
	b := []byte(s)
	for i, ch := range b {
		if ch >= 'a' && ch <= 'z' {
			b[i] = ch - 'a' + 'A'
		}
	}
	return string(b)
}
