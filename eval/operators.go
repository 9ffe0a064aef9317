package eval

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/marionette-dev/marionette/diag"
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
		return nil, notNumeric(sc, x, v)
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
	case syntax.IN:
		if v, ok := x.Right.(*syntax.Variable); ok && (v.Name == "facts" || v.Name == "::facts") {
			if out, ok, err := ev.inFacts(x, v, sc); ok {
				return out, err
			}
		}
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
			return nil, IssueAt(sc, x, diag.ComparisonNotPossible, diag.Args{"operator": x.Op.String()}, "Comparison of: %s %s %s, is not possible. Caused by '%s'.", typeName(l), x.Op, typeName(r), notComparable(l))
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
		ok, err := in(l, r)
		if err != nil {
			return nil, errorAt(sc, x, "%v", err)
		}
		return value.Boolean(ok), nil
	}
	v, err := ev.arithmetic(x, sc, l, r)
	if err == nil && (x.Op == syntax.ADD || x.Op == syntax.SHL) {
		err = ev.checkNesting(v, sc, x) // [] << $m nests as [$m] does
	}
	return v, err
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
				return nil, errorAt(sc, x, "Error while evaluating a '+' expression, %s", err.Error())
			}
			return value.Merge(lv, rh), nil
		case syntax.SUB:
			return hashMinus(lv, r), nil
		case syntax.SHL:
			return nil, IssueAt(sc, x.Left, diag.OperatorNotApplicable, diag.Args{"operator": "<<"}, "Operator '<<' is not applicable to a Hash.")
		}
	}
	// Numbers, as Puppet's calculate does it; each error is placed where
	// Puppet places it: a value that is no number at its operand, division
	// by zero at the divisor, an operator that does not apply at the left
	// operand, an overflow at the expression.
	ln, err := ev.numeric(sc, x.Left, l)
	if err != nil {
		return nil, err
	}
	if ln == nil {
		return nil, notNumeric(sc, x.Left, l)
	}
	rn, err := ev.numeric(sc, x.Right, r)
	if err != nil {
		return nil, err
	}
	if rn == nil {
		return nil, notNumeric(sc, x.Right, r)
	}
	li, lInt := ln.(value.Integer)
	ri, rInt := rn.(value.Integer)
	if x.Op == syntax.REM && !(lInt && rInt) || (x.Op == syntax.SHL || x.Op == syntax.SHR) && !lInt {
		if !lInt {
			return nil, IssueAt(sc, x.Left, diag.OperatorNotApplicable, diag.Args{"operator": x.Op.String()}, "Operator '%s' is not applicable to %s.", x.Op, describe(ln))
		}
		return nil, IssueAt(sc, x.Left, diag.OperatorNotApplicableWhen, diag.Args{"operator": x.Op.String()}, "Operator '%s' is not applicable to %s when right side is %s.", x.Op, describe(ln), describe(rn))
	}
	if lInt && rInt {
		// The usual sum, difference or product fits an int64: only one
		// that overflows goes through big.Int (for the error's figure).
		if v, ok := intArith(x.Op, int64(li), int64(ri)); ok {
			return value.Integer(v), nil
		}
		var n *big.Int
		switch x.Op {
		case syntax.ADD:
			n = new(big.Int).Add(big.NewInt(int64(li)), big.NewInt(int64(ri)))
		case syntax.SUB:
			n = new(big.Int).Sub(big.NewInt(int64(li)), big.NewInt(int64(ri)))
		case syntax.MUL:
			n = new(big.Int).Mul(big.NewInt(int64(li)), big.NewInt(int64(ri)))
		case syntax.QUO, syntax.REM:
			if ri == 0 {
				return nil, IssueAt(sc, x.Right, diag.DivByZero, nil, "Division by 0")
			}
			if x.Op == syntax.QUO {
				return floorDiv(li, ri), nil
			}
			return floorMod(li, ri), nil
		case syntax.SHL, syntax.SHR:
			by := int64(ri)
			if x.Op == syntax.SHR {
				by = -by
			}
			if by <= 0 || li == 0 {
				return shift(li, value.Integer(by)), nil
			}
			if by > 1<<16 {
				by = 1 << 16 // overflows all the same; bounds the number shown
			}
			n = new(big.Int).Lsh(big.NewInt(int64(li)), uint(by))
		}
		if n != nil {
			if !n.IsInt64() {
				return nil, overflow(sc, x, n)
			}
			return value.Integer(n.Int64()), nil
		}
	}
	lf, rf := toFloat(ln), toFloat(rn)
	var f float64
	switch x.Op {
	case syntax.ADD:
		f = lf + rf
	case syntax.SUB:
		f = lf - rf
	case syntax.MUL:
		f = lf * rf
	case syntax.QUO:
		f = lf / rf
	default:
		return nil, errorAt(sc, x, "Unknown operator '%s'", x.Op)
	}
	if math.IsInf(f, 0) {
		return nil, IssueAt(sc, x.Left, diag.ResultIsInfinity, diag.Args{"operator": x.Op.String()}, "The result of the %s expression is Infinity", x.Op)
	}
	return value.Float(f), nil
}

// notNumeric is Puppet's error for an arithmetic operand that is no number,
// placed at the operand; the value is shown as Ruby's to_s shows it.
func notNumeric(sc *Scope, operand syntax.Node, v value.Value) error {
	return IssueAt(sc, operand, diag.NotNumeric, diag.Args{"value": value.RubyString(v)}, "The value '%s' cannot be converted to Numeric.", value.RubyString(v))
}

// overflow is Puppet's error for an Integer result outside 64 bits.
// intArith computes a + b, a - b or a * b (op ADD, SUB, MUL) when the
// result fits an int64; ok is false otherwise, and for any other op.
func intArith(op syntax.Token, a, b int64) (v int64, ok bool) {
	switch op {
	case syntax.ADD:
		v = a + b
		return v, (a^v)&(b^v) >= 0
	case syntax.SUB:
		v = a - b
		return v, (a^b)&(a^v) >= 0
	case syntax.MUL:
		if a == 0 || b == 0 {
			return 0, true
		}
		v = a * b
		if (a == -1 && b == math.MinInt64) || (b == -1 && a == math.MinInt64) || v/b != a {
			return 0, false
		}
		return v, true
	}
	return 0, false
}

func overflow(sc *Scope, x *syntax.BinaryExpr, n *big.Int) error {
	bound, sign := "max", "+"
	if n.Sign() < 0 {
		bound, sign = "min", "-"
	}
	return errorAt(sc, x, "A '%s' expression resulted in a value outside of Puppet Integer %s range, got '%s0x%s'",
		x.Op, bound, sign, new(big.Int).Abs(n).Text(16))
}

// numeric returns v as a number, coercing numeric strings as Puppet still does
// (a warning or an error as the strict setting says); nil otherwise.
func (ev *Evaluator) numeric(sc *Scope, at syntax.Node, v value.Value) (value.Value, error) {
	switch s := v.(type) {
	case value.Integer, value.Float:
		return v, nil
	case value.String:
		n := coerceNumber(v)
		if n == nil {
			return nil, nil
		}
		return n, ev.coerced(sc, at, s, n)
	}
	return nil, nil
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

// toHash converts the right operand of Hash + x the way Puppet does: a Hash
// as is; an Array of Arrays as pairs (Ruby's Hash[array]: [k] or [k, v]);
// any other Array as alternating keys and values (Hash[*array]). The error
// texts are Ruby's.
func toHash(v value.Value) (*value.Hash, error) {
	switch v := v.(type) {
	case *value.Hash:
		return v, nil
	case value.Array:
		pairs := len(v) > 0
		for _, e := range v {
			if _, ok := e.(value.Array); !ok {
				pairs = false
				break
			}
		}
		if pairs {
			b := value.NewHashBuilder(len(v))
			for _, e := range v {
				p := e.(value.Array)
				switch len(p) {
				case 1:
					b.Set(p[0], value.Undef)
				case 2:
					b.Set(p[0], p[1])
				default:
					return nil, fmt.Errorf("invalid number of elements (%d for 1..2)", len(p))
				}
			}
			return b.Build(), nil
		}
		if len(v)%2 != 0 {
			return nil, errors.New("odd number of arguments for Hash")
		}
		b := value.NewHashBuilder(len(v) / 2)
		for i := 0; i < len(v); i += 2 {
			b.Set(v[i], v[i+1])
		}
		return b.Build(), nil
	}
	return nil, errors.New("Can only append Array or Hash to a Hash")
}

// in implements Puppet's `in`: substring (case-insensitive), array
// membership (==, regex match or type instance), hash key. A regexp match
// that timed out is an error, not a non-match.
func in(l, r value.Value) (bool, error) {
	switch rv := r.(type) {
	case value.String:
		switch lv := l.(type) {
		case value.String:
			return value.ContainsFold(string(rv), string(lv)), nil
		case *value.Regexp:
			return lv.Match(string(rv))
		}
		return false, nil
	case *value.SemVerRange:
		return value.RangeIncludes(rv, l), nil
	case value.Array:
		for _, e := range rv {
			if ok, err := inMatches(l, e); ok || err != nil {
				return ok, err
			}
		}
		return false, nil
	case *value.Hash:
		for _, k := range rv.Keys() {
			if ok, err := inMatches(l, k); ok || err != nil {
				return ok, err
			}
		}
		return false, nil
	}
	return false, nil
}

// inFacts is `x in $facts` in a compile that records the facts it reads:
// a string is a read of the facts whose names equal it but for case, not
// of every fact (ok is false when $facts is not recorded there).
func (ev *Evaluator) inFacts(x *syntax.BinaryExpr, v *syntax.Variable, sc *Scope) (out value.Value, ok bool, err error) {
	from := sc
	if v.Name == "::facts" {
		from = sc.Top()
	}
	h, rec := from.FactsAt()
	if h == nil {
		return nil, false, nil
	}
	l, err := ev.Eval(x.Left, sc)
	if err != nil {
		return nil, true, err
	}
	if s, isString := l.(value.String); isString {
		rec.FactFold(string(s))
	} else {
		rec.AllFacts()
	}
	found, err := in(l, h)
	if err != nil {
		return nil, true, errorAt(sc, x, "%v", err)
	}
	return value.Boolean(found), true, nil
}

func inMatches(l, e value.Value) (bool, error) {
	switch lv := l.(type) {
	case *value.Regexp:
		s, ok := e.(value.String)
		if !ok {
			return false, nil
		}
		return lv.Match(string(s))
	case value.Type:
		return value.CheckInstance(lv, e)
	}
	return value.Equal(l, e), nil
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
