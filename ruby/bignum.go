package ruby

import (
	"math/big"
)

// rbig is an Integer past 64 bits, as IPAddr#to_i gives for an IPv6
// address (extlib::compare_ip compares them). The subset only compares
// and prints them; arithmetic on them is unsupported, and a Puppet Integer
// is 64-bit, so one cannot be returned to Puppet.
type rbig struct{ n *big.Int }

// bigOrInt is n as an int64 when it fits, else as an rbig: Ruby has one
// Integer class, so a value that fits is an ordinary Integer.
func bigOrInt(n *big.Int) any {
	if n.IsInt64() {
		return n.Int64()
	}
	return &rbig{n: n}
}

// bigOf gives an Integer value as a big.Int.
func bigOf(v any) (*big.Int, bool) {
	switch v := v.(type) {
	case int64:
		return big.NewInt(v), true
	case *rbig:
		return v.n, true
	}
	return nil, false
}

// compareBig compares two Integers of which at least one is an rbig.
func compareBig(a, b any) (int, bool) {
	x, ok1 := bigOf(a)
	y, ok2 := bigOf(b)
	if !ok1 || !ok2 {
		return 0, false
	}
	return x.Cmp(y), true
}

// bigMethod implements the methods of a large Integer the subset has.
func (in *interp) bigMethod(line int, r *rbig, name string, args []any) (any, bool, error) {
	switch name {
	case "<", ">", "<=", ">=", "<=>", "between?":
		return in.comparison(line, r, name, args)
	case "to_s", "inspect":
		if len(args) == 0 {
			return newStr(r.n.String()), true, nil
		}
	case "to_i", "to_int":
		if len(args) == 0 {
			return r, true, nil
		}
	case "hash":
		if len(args) == 0 {
			return int64(len(r.n.Bits())), true, nil
		}
	case "%", "modulo":
		// Ruby's modulo takes the divisor's sign (cron_splay takes an
		// MD5 digest's Integer modulo a period).
		if d, ok := bigOf(arg0(args)); ok && len(args) == 1 {
			if d.Sign() == 0 {
				return nil, true, in.errorf(line, "ZeroDivisionError", "divided by 0")
			}
			m := new(big.Int).Mod(r.n, d) // 0 <= m < |d|
			if d.Sign() < 0 && m.Sign() != 0 {
				m.Add(m, d)
			}
			return bigOrInt(m), true, nil
		}
	}
	return in.objectMethod(line, r, name, args)
}

// arg0 is the first argument, or nil without one.
func arg0(args []any) any {
	if len(args) == 0 {
		return nil
	}
	return args[0]
}
