package stdlib

import (
	"crypto/md5"
	"encoding/hex"
	"math/big"
	"strings"

	"github.com/marionette-dev/marionette/functions"
	"github.com/marionette-dev/marionette/value"
)

// fqdn_rand, fqdn_rotate and seeded_rand must pick the same numbers as
// Puppet: Ruby's Random.new(seed).rand(n), a Mersenne Twister seeded with
// an MD5 digest read as one big integer.

func addRandom(t functions.Table) {
	t["fqdn_rand"] = legacy(fqdnRand)
	t["fqdn_rotate"] = legacy(fqdnRotate)
	t["seeded_rand"] = legacy(seededRand)
}

// mtState is MT19937 as Ruby's Random uses it.
type mtState struct {
	mt  [624]uint32
	idx int
}

func (m *mtState) initGenrand(s uint32) {
	m.mt[0] = s
	for i := 1; i < 624; i++ {
		m.mt[i] = 1812433253*(m.mt[i-1]^(m.mt[i-1]>>30)) + uint32(i)
	}
	m.idx = 624
}

func (m *mtState) initByArray(key []uint32) {
	m.initGenrand(19650218)
	i, j := 1, 0
	k := max(624, len(key))
	for ; k > 0; k-- {
		m.mt[i] = (m.mt[i] ^ ((m.mt[i-1] ^ (m.mt[i-1] >> 30)) * 1664525)) + key[j] + uint32(j)
		i++
		j++
		if i >= 624 {
			m.mt[0] = m.mt[623]
			i = 1
		}
		if j >= len(key) {
			j = 0
		}
	}
	for k = 623; k > 0; k-- {
		m.mt[i] = (m.mt[i] ^ ((m.mt[i-1] ^ (m.mt[i-1] >> 30)) * 1566083941)) - uint32(i)
		i++
		if i >= 624 {
			m.mt[0] = m.mt[623]
			i = 1
		}
	}
	m.mt[0] = 0x80000000
	m.idx = 624
}

func (m *mtState) next() uint32 {
	if m.idx >= 624 {
		const upper, lower = 0x80000000, 0x7fffffff
		for i := range 624 {
			y := m.mt[i]&upper | m.mt[(i+1)%624]&lower
			v := m.mt[(i+397)%624] ^ y>>1
			if y&1 != 0 {
				v ^= 0x9908b0df
			}
			m.mt[i] = v
		}
		m.idx = 0
	}
	y := m.mt[m.idx]
	m.idx++
	y ^= y >> 11
	y ^= y << 7 & 0x9d2c5680
	y ^= y << 15 & 0xefc60000
	y ^= y >> 18
	return y
}

// newRubyRandom is Ruby's Random.new(seed) for a non-negative seed: the
// seed's 32-bit words, least significant first, feed init_by_array (a
// single word seeds init_genrand). Like Ruby, a top word of exactly 1 is
// dropped when there are several words.
func newRubyRandom(seed *big.Int) *mtState {
	var key []uint32
	n := new(big.Int).Set(seed)
	mask := big.NewInt(0xffffffff)
	for n.Sign() > 0 {
		key = append(key, uint32(new(big.Int).And(n, mask).Uint64()))
		n.Rsh(n, 32)
	}
	if len(key) == 0 {
		key = []uint32{0}
	}
	if len(key) > 1 && key[len(key)-1] == 1 {
		key = key[:len(key)-1]
	}
	m := &mtState{}
	if len(key) == 1 {
		// A one-word seed initializes the generator directly.
		m.initGenrand(key[0])
	} else {
		m.initByArray(key)
	}
	return m
}

// intn is Ruby's Random#rand(n) for 0 < n <= 2^32: a masked draw, retried
// until it falls below n.
func (m *mtState) intn(n uint64) uint64 {
	limit := n - 1
	if limit == 0 {
		return 0
	}
	mask := limit
	for s := uint(1); s < 64; s <<= 1 {
		mask |= mask >> s
	}
	if limit > 0xffffffff {
		for {
			v := (uint64(m.next())<<32 | uint64(m.next())) & mask
			if v <= limit {
				return v
			}
		}
	}
	for {
		v := uint64(m.next()) & mask
		if v <= limit {
			return v
		}
	}
}

// md5Seed is Digest::MD5.hexdigest(s).hex.
func md5Seed(s string) *big.Int {
	sum := md5.Sum([]byte(s))
	n, _ := new(big.Int).SetString(hex.EncodeToString(sum[:]), 16)
	return n
}

// rubyJoin is Ruby's Array#join(sep): nested arrays are joined
// recursively, nil is empty.
func rubyJoin(parts value.Array, sep string) string {
	out := make([]string, len(parts))
	for i, p := range parts {
		if a, ok := p.(value.Array); ok {
			out[i] = rubyJoin(a, sep)
		} else {
			out[i] = value.RubyString(p)
		}
	}
	return strings.Join(out, sep)
}

// fqdnRand is Puppet's fqdn_rand(max, seed, downcase): a number in
// 0...max that stays the same for a node.
func fqdnRand(c *functions.Ctx, args []value.Value) (value.Value, error) {
	if err := functions.Arity3("fqdn_rand", args, 1, true); err != nil {
		return nil, err
	}
	maxN, err := rubyToI(args[0])
	if err != nil {
		return nil, err
	}
	fqdn := value.Value(value.Undef)
	if net, ok := topFact(c, "networking"); ok {
		if h, ok := net.(*value.Hash); ok {
			if v, ok := h.GetString("fqdn"); ok {
				fqdn = v
			}
		}
	}
	if value.Truthy(arg(args, 2)) {
		fqdn = value.String(strings.ToLower(value.RubyString(fqdn)))
	}
	seed := md5Seed(rubyJoin(value.Array{fqdn, value.Integer(maxN), arg(args, 1)}, ":"))
	return value.Integer(deterministicRand(seed, maxN)), nil
}

// deterministicRand is Puppet::Util.deterministic_rand_int(seed, max).
func deterministicRand(seed *big.Int, maxN int64) int64 {
	if maxN <= 0 {
		// Ruby's rand(0) is a float and rand(-n) fails; Puppet code never
		// asks for either, so the degenerate answer is 0.
		return 0
	}
	return int64(newRubyRandom(seed).intn(uint64(maxN)))
}

// fqdnRotate is stdlib's fqdn_rotate: the array (or string) rotated by a
// per-node offset.
func fqdnRotate(c *functions.Ctx, args []value.Value) (value.Value, error) {
	return rotate3x(c, args, func() value.Value {
		if c.Scope != nil {
			if v, ok := c.Scope.Top().Lookup("fqdn"); ok {
				return v
			}
		}
		return value.Undef
	})
}

// fqdnRotateFactsSeed is the 3.x fqdn_rotate of stdlib 9.0 to 9.3, which
// seeds with the whole $facts hash where it meant the fqdn: the seed text
// is the Hash's Ruby inspect, so the offset follows every fact and their
// order.
func fqdnRotateFactsSeed(c *functions.Ctx, args []value.Value) (value.Value, error) {
	return rotate3x(c, args, func() value.Value {
		if c.Scope != nil {
			if v, ok := c.Scope.Top().Lookup("facts"); ok {
				return v
			}
		}
		return value.Undef
	})
}

// rotate3x is the 3.x fqdn_rotate's checks and rotation, with the node's
// part of the seed from nodeSeed (read only when there is something to
// rotate, as the Ruby reads it).
func rotate3x(c *functions.Ctx, args []value.Value, nodeSeed func() value.Value) (value.Value, error) {
	if err := functions.CountArgs(args, 1, -1, "fqdn_rotate(): Wrong number of arguments given (%d for 1)"); err != nil {
		return nil, err
	}
	var elems value.Array
	str, isString := args[0].(value.String)
	switch v := args[0].(type) {
	case value.Array:
		elems = v
	case value.String:
		for _, r := range string(v) {
			elems = append(elems, value.String(string(r)))
		}
	default:
		return nil, errorf("fqdn_rotate(): Requires either array or string to work with")
	}
	if len(elems) <= 1 {
		if isString {
			return str, nil
		}
		return elems, nil
	}
	return rotateByNode(nodeSeed(), args[1:], elems, isString), nil
}

// rotateByNode rotates elems by the offset stdlib derives from the node's
// fqdn and the extra seeds, and joins them back into a string when the
// input was one (both fqdn_rotate and stdlib::fqdn_rotate).
func rotateByNode(fqdn value.Value, seeds []value.Value, elems value.Array, isString bool) value.Value {
	seed := md5Seed(rubyJoin(value.Array{fqdn, value.Array(seeds)}, ":"))
	offset := int(deterministicRand(seed, int64(len(elems))))
	out := append(append(value.Array{}, elems[offset:]...), elems[:offset]...)
	if isString {
		var b strings.Builder
		for _, e := range out {
			b.WriteString(string(e.(value.String)))
		}
		return value.String(b.String())
	}
	return out
}

// seededRand is stdlib's seeded_rand(max, seed).
func seededRand(c *functions.Ctx, args []value.Value) (value.Value, error) {
	n, _ := rubyToI(arg(args, 0))
	if !isIntegerValue(arg(args, 0)) || n <= 0 {
		return nil, errorf("seeded_rand(): first argument must be a positive integer")
	}
	seed, ok := arg(args, 1).(value.String)
	if !ok {
		return nil, errorf("seeded_rand(): second argument must be a string")
	}
	return value.Integer(deterministicRand(md5Seed(string(seed)), n)), nil
}
