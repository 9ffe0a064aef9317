package eval

import (
	"math"
	"strconv"
	"strings"

	"github.com/marionette-dev/marionette/syntax"
	"github.com/marionette-dev/marionette/value"
)

func (ev *Evaluator) unary(x *syntax.UnaryExpr, sc *Scope) (value.Value, error) {
	v, err := ev.Eval(x.Operand, sc)
	if err != nil {
		return nil, err
	}
	switch x.Op {
	case syntax.NOT:
		return value.Boolean(!value.Truthy(v)), nil
	case syntax.SUB:
		switch n := coerceNumber(v).(type) {
		case value.Integer:
			return -n, nil
		case value.Float:
			return -n, nil
		}
		return nil, errorAt(sc, x, "Operator '-' is not applicable to %s", describe(v))
	case syntax.MUL:
		// A splat outside an array or argument list is the value unfolded
		// into an array.
		return appendSplat(nil, v), nil
	}
	return nil, errorAt(sc, x, "Unknown unary operator")
}

func (ev *Evaluator) binary(x *syntax.BinaryExpr, sc *Scope) (value.Value, error) {
	switch x.Op {
	case syntax.AND, syntax.OR:
		l, err := ev.Eval(x.Left, sc)
		if err != nil {
			return nil, err
		}
		lt := value.Truthy(l)
		if x.Op == syntax.AND && !lt || x.Op == syntax.OR && lt {
			return value.Boolean(lt), nil
		}
		r, err := ev.Eval(x.Right, sc)
		if err != nil {
			return nil, err
		}
		return value.Boolean(value.Truthy(r)), nil
	case syntax.MATCH, syntax.NOMATCH:
		m, _, err := ev.match(x, sc)
		return value.Boolean(m == (x.Op == syntax.MATCH)), err
	}
	l, err := ev.Eval(x.Left, sc)
	if err != nil {
		return nil, err
	}
	r, err := ev.Eval(x.Right, sc)
	if err != nil {
		return nil, err
	}
	switch x.Op {
	case syntax.EQL:
		return value.Boolean(value.Equal(l, r)), nil
	case syntax.NEQ:
		return value.Boolean(!value.Equal(l, r)), nil
	case syntax.LSS, syntax.LEQ, syntax.GTR, syntax.GEQ:
		c, ok := value.Compare(l, r)
		if !ok {
			return nil, errorAt(sc, x, "Comparison of: %s %s %s, is not possible. Caused by '%s'.", typeName(l), x.Op, typeName(r), notComparable(l))
		}
		switch x.Op {
		case syntax.LSS:
			return value.Boolean(c < 0), nil
		case syntax.LEQ:
			return value.Boolean(c <= 0), nil
		case syntax.GTR:
			return value.Boolean(c > 0), nil
		}
		return value.Boolean(c >= 0), nil
	case syntax.IN:
		return value.Boolean(in(l, r)), nil
	}
	return ev.arithmetic(x, sc, l, r)
}

func (ev *Evaluator) arithmetic(x *syntax.BinaryExpr, sc *Scope, l, r value.Value) (value.Value, error) {
	// Collections first: + and - and << have collection meanings.
	switch lv := l.(type) {
	case value.Array:
		switch x.Op {
		case syntax.ADD:
			return concat(lv, r), nil
		case syntax.SUB:
			return subtract(lv, r), nil
		case syntax.SHL:
			out := make(value.Array, len(lv), len(lv)+1)
			copy(out, lv)
			return append(out, r), nil
		}
	case *value.Hash:
		switch x.Op {
		case syntax.ADD:
			rh, err := toHash(r)
			if err != nil {
				return nil, errorAt(sc, x, "%s", err.Error())
			}
			return value.Merge(lv, rh), nil
		case syntax.SUB:
			return hashMinus(lv, r), nil
		}
	}
	ln, rn := ev.numeric(sc, x.Left, l), ev.numeric(sc, x.Right, r)
	if ln == nil || rn == nil {
		bad := l
		if ln != nil {
			bad = r
		}
		if s, ok := bad.(value.String); ok {
			return nil, errorAt(sc, x, "The value '%s' cannot be converted to Numeric.", string(s))
		}
		return nil, errorAt(sc, x, "Operator '%s' is not applicable to %s", x.Op, describe(bad))
	}
	li, lInt := ln.(value.Integer)
	ri, rInt := rn.(value.Integer)
	if lInt && rInt {
		switch x.Op {
		case syntax.ADD:
			return li + ri, nil
		case syntax.SUB:
			return li - ri, nil
		case syntax.MUL:
			return li * ri, nil
		case syntax.QUO:
			if ri == 0 {
				return nil, errorAt(sc, x, "Division by 0")
			}
			return floorDiv(li, ri), nil
		case syntax.REM:
			if ri == 0 {
				return nil, errorAt(sc, x, "Division by 0")
			}
			return floorMod(li, ri), nil
		case syntax.SHL:
			return shift(li, ri), nil
		case syntax.SHR:
			return shift(li, -ri), nil
		}
	}
	lf, rf := toFloat(ln), toFloat(rn)
	switch x.Op {
	case syntax.ADD:
		return value.Float(lf + rf), nil
	case syntax.SUB:
		return value.Float(lf - rf), nil
	case syntax.MUL:
		return value.Float(lf * rf), nil
	case syntax.QUO:
		if rf == 0 {
			return nil, errorAt(sc, x, "Division by 0")
		}
		return value.Float(lf / rf), nil
	case syntax.REM, syntax.SHL, syntax.SHR:
		return nil, errorAt(sc, x, "Operator '%s' is not applicable to a Float", x.Op)
	}
	return nil, errorAt(sc, x, "Unknown operator '%s'", x.Op)
}

// numeric returns v as a number, coercing numeric strings as Puppet still does
// (with its deprecation warning, which the host may log later); nil otherwise.
func (ev *Evaluator) numeric(sc *Scope, at syntax.Node, v value.Value) value.Value {
	switch v.(type) {
	case value.Integer, value.Float:
		return v
	case value.String:
		return coerceNumber(v)
	}
	return nil
}

// coerceNumber converts a string that looks like a Puppet number.
func coerceNumber(v value.Value) value.Value {
	s, ok := v.(value.String)
	if !ok {
		return v
	}
	str := strings.TrimSpace(string(s))
	if i, err := strconv.ParseInt(str, 0, 64); err == nil {
		return value.Integer(i)
	}
	if f, err := strconv.ParseFloat(str, 64); err == nil && !strings.ContainsAny(str, "xXpP_") {
		return value.Float(f)
	}
	return nil
}

func toFloat(v value.Value) float64 {
	switch n := v.(type) {
	case value.Integer:
		return float64(n)
	case value.Float:
		return float64(n)
	}
	return math.NaN()
}

// floorDiv and floorMod follow Ruby: the quotient rounds toward negative
// infinity and the remainder takes the divisor's sign.
func floorDiv(a, b value.Integer) value.Integer {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

func floorMod(a, b value.Integer) value.Integer {
	m := a % b
	if m != 0 && ((m < 0) != (b < 0)) {
		m += b
	}
	return m
}

func shift(a, n value.Integer) value.Integer {
	switch {
	case n >= 64:
		return 0
	case n > 0:
		return a << uint(n)
	case n <= -64:
		if a < 0 {
			return -1
		}
		return 0
	case n < 0:
		return a >> uint(-n)
	}
	return a
}

func concat(a value.Array, r value.Value) value.Array {
	switch r := r.(type) {
	case value.Array:
		out := make(value.Array, 0, len(a)+len(r))
		return append(append(out, a...), r...)
	case *value.Hash:
		out := make(value.Array, len(a), len(a)+r.Len())
		copy(out, a)
		return appendSplat(out, r)
	}
	out := make(value.Array, len(a), len(a)+1)
	copy(out, a)
	return append(out, r)
}

func subtract(a value.Array, r value.Value) value.Array {
	var remove value.Array
	switch r := r.(type) {
	case value.Array:
		remove = r
	case *value.Hash:
		remove = appendSplat(nil, r)
	default:
		remove = value.Array{r}
	}
	out := make(value.Array, 0, len(a))
outer:
	for _, e := range a {
		for _, x := range remove {
			if value.Equal(e, x) {
				continue outer
			}
		}
		out = append(out, e)
	}
	return out
}

func hashMinus(h *value.Hash, r value.Value) *value.Hash {
	var keys []value.Value
	switch r := r.(type) {
	case *value.Hash:
		keys = r.Keys()
	case value.Array:
		keys = r
	default:
		keys = []value.Value{r}
	}
	b := value.NewHashBuilder(h.Len())
	for i, k := range h.Keys() {
		b.Set(k, h.Values()[i])
	}
	for _, k := range keys {
		b.Delete(k)
	}
	return b.Build()
}

type hashConvError struct{ v value.Value }

func (e hashConvError) Error() string {
	return "Operator '+' is not applicable to a Hash and " + describe(e.v)
}

func toHash(v value.Value) (*value.Hash, error) {
	switch v := v.(type) {
	case *value.Hash:
		return v, nil
	case value.Array:
		b := value.NewHashBuilder(len(v) / 2)
		if len(v) > 0 {
			if _, pairs := v[0].(value.Array); pairs {
				for _, e := range v {
					p, ok := e.(value.Array)
					if !ok || len(p) != 2 {
						return nil, hashConvError{v}
					}
					b.Set(p[0], p[1])
				}
				return b.Build(), nil
			}
		}
		if len(v)%2 != 0 {
			return nil, hashConvError{v}
		}
		for i := 0; i < len(v); i += 2 {
			b.Set(v[i], v[i+1])
		}
		return b.Build(), nil
	}
	return nil, hashConvError{v}
}

// in implements Puppet's `in`: substring (case-insensitive), array
// membership (==, regex match or type instance), hash key.
func in(l, r value.Value) bool {
	switch rv := r.(type) {
	case value.String:
		switch lv := l.(type) {
		case value.String:
			return value.ContainsFold(string(rv), string(lv))
		case *value.Regexp:
			return lv.MatchString(string(rv))
		}
		return false
	case value.Array:
		for _, e := range rv {
			if inMatches(l, e) {
				return true
			}
		}
		return false
	case *value.Hash:
		for _, k := range rv.Keys() {
			if inMatches(l, k) {
				return true
			}
		}
		return false
	}
	return false
}

func inMatches(l, e value.Value) bool {
	switch lv := l.(type) {
	case *value.Regexp:
		s, ok := e.(value.String)
		return ok && lv.MatchString(string(s))
	case value.Type:
		return value.IsInstance(lv, e)
	}
	return value.Equal(l, e)
}

// typeName is the generalized type name of a value: String, Integer, ...
func typeName(v value.Value) string {
	name := value.TypeString(value.Generalize(value.TypeOf(v)))
	if i := strings.IndexByte(name, '['); i > 0 {
		name = name[:i]
	}
	return name
}

// notComparable explains a failed comparison as Puppet does.
func notComparable(l value.Value) string {
	switch l.(type) {
	case value.String:
		return "A String is not comparable to a non String"
	case value.Integer, value.Float:
		return "A Numeric is not comparable to non Numeric"
	}
	return "Only Strings, Numbers, Timespans, Timestamps, and Versions are comparable"
}

// describe names a value the way Puppet's errors do: "a String", "an Integer".
func describe(v value.Value) string {
	name := value.TypeString(value.Generalize(value.TypeOf(v)))
	if i := strings.IndexByte(name, '['); i > 0 {
		name = name[:i]
	}
	return article(name) + " " + name
}

func article(word string) string {
	if word != "" && strings.ContainsRune("AEIOU", rune(word[0])) {
		return "an"
	}
	return "a"
}
