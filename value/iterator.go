package value

import "iter"

// Extension is embedded by values defined in other packages (lambdas, callable
// functions), which makes them Values without exposing the marker method.
type Extension struct{}

func (Extension) isValue() {}

// Callable is a value that can be called: a lambda or a function reference.
type Callable interface {
	Value
	Signature() *CallableType
}

// Iterator is a lazily produced sequence (the result of step(), reverse_each()
// without a block, and similar).
type Iterator struct {
	Elem Type
	Seq  iter.Seq[Value]
}

func (*Iterator) isValue() {}

// Iterate calls yield for every element Puppet's iteration functions would
// produce from v: array elements, [key, value] pairs of a hash, the characters
// of a string, 0..n-1 for a non-negative integer, the members of an integer
// range type or an Enum. It returns false when v is not iterable.
func Iterate(v Value, yield func(Value) bool) bool {
	switch v := v.(type) {
	case Array:
		for _, e := range v {
			if !yield(e) {
				break
			}
		}
	case *Hash:
		for i, k := range v.keys {
			if !yield(Array{k, v.vals[i]}) {
				break
			}
		}
	case String:
		for _, r := range string(v) {
			if !yield(String(string(r))) {
				break
			}
		}
	case Integer:
		if v < 0 {
			return false
		}
		for i := Integer(0); i < v; i++ {
			if !yield(i) {
				break
			}
		}
	case *IntegerType:
		if v.Min == MinInt || v.Max == MaxInt {
			return false
		}
		for i := v.Min; i <= v.Max; i++ {
			if !yield(Integer(i)) || i == v.Max {
				break
			}
		}
	case *EnumType:
		for _, s := range v.Values {
			if !yield(String(s)) {
				break
			}
		}
	case *Iterator:
		for e := range v.Seq {
			if !yield(e) {
				break
			}
		}
	default:
		return false
	}
	return true
}

// ToArray collects the elements of an iterable value; ok is false if v is not iterable.
func ToArray(v Value) (Array, bool) {
	if a, ok := v.(Array); ok {
		return a, true
	}
	var out Array
	ok := Iterate(v, func(e Value) bool {
		out = append(out, e)
		return true
	})
	return out, ok
}
