package ruby

import (
	"fmt"
	"math/big"
	"net"
	"net/netip"
	"strings"
)

// rexception is the exception object a rescue clause binds (rescue => e).
type rexception struct {
	class, msg string
}

// ipAddr is Ruby's IPAddr (require 'ipaddr'): an address with a prefix
// length. Modules' templates and functions use it to validate addresses.
type ipAddr struct {
	prefix netip.Prefix // masked, as IPAddr keeps it
}

// newIPAddr is IPAddr.new(string): "a.b.c.d", "a.b.c.d/len", an IPv6
// address with or without /len, or one in brackets; anything else raises
// IPAddr::InvalidAddressError, an ArgumentError.
func (in *interp) newIPAddr(line int, args []any) (any, error) {
	if len(args) != 1 {
		return nil, in.unsupported(line, "IPAddr.new with %d arguments", len(args))
	}
	s, err := in.strArg(line, args, 0)
	if err != nil {
		return nil, err
	}
	text := strings.TrimSuffix(strings.TrimPrefix(s, "["), "]")
	var p netip.Prefix
	if addr, mask, ok := strings.Cut(text, "/"); ok && strings.ContainsAny(mask, ".:") {
		// a.b.c.d/255.255.0.0: the mask in address form.
		return in.ipAddrWithMask(line, addr, mask)
	}
	if strings.Contains(text, "/") {
		p, err = netip.ParsePrefix(text)
	} else {
		var a netip.Addr
		if a, err = netip.ParseAddr(text); err == nil {
			p = netip.PrefixFrom(a, a.BitLen())
		}
	}
	if err != nil || p.Addr().Zone() != "" {
		// Ruby 3.1's message names no address (it is not parsed yet).
		return nil, in.errorf(line, "IPAddr::InvalidAddressError", "invalid address: ")
	}
	return &ipAddr{prefix: p.Masked()}, nil
}

// ipAddrWithMask is IPAddr.new("addr/mask") with the mask written as an
// address of the same family: its bits must be contiguous.
func (in *interp) ipAddrWithMask(line int, addr, mask string) (any, error) {
	a, err1 := netip.ParseAddr(addr)
	m, err2 := netip.ParseAddr(mask)
	if err1 != nil || err2 != nil || a.Zone() != "" || a.Is4() != m.Is4() {
		return nil, in.errorf(line, "IPAddr::InvalidAddressError", "invalid address: ")
	}
	b := m.AsSlice()
	bits := 0
	for bits < len(b)*8 && b[bits/8]&(0x80>>(bits%8)) != 0 {
		bits++
	}
	for i := bits; i < len(b)*8; i++ {
		if b[i/8]&(0x80>>(i%8)) != 0 {
			// Ruby quotes the address as an integer.
			n := new(big.Int).SetBytes(a.AsSlice())
			return nil, in.errorf(line, "IPAddr::InvalidPrefixError", "invalid mask %s: %s", mask, n.String())
		}
	}
	return &ipAddr{prefix: netip.PrefixFrom(a, bits).Masked()}, nil
}

// inspect is IPAddr#inspect: the family, then the address and its mask
// in full (IPv6 groups of four hex digits).
func (a *ipAddr) inspect() string {
	addr := a.prefix.Addr()
	mask := net.CIDRMask(a.prefix.Bits(), addr.BitLen())
	if addr.Is4() {
		return fmt.Sprintf("#<IPAddr: IPv4:%s/%s>", addr, net.IP(mask))
	}
	full := func(b []byte) string {
		var s strings.Builder
		for i := 0; i < len(b); i += 2 {
			if i > 0 {
				s.WriteByte(':')
			}
			fmt.Fprintf(&s, "%02x%02x", b[i], b[i+1])
		}
		return s.String()
	}
	return "#<IPAddr: IPv6:" + full(addr.AsSlice()) + "/" + full(mask) + ">"
}

// ipAddrMethod dispatches a call of one of IPAddr's methods through ipAddrMethods.
func (in *interp) ipAddrMethod(line int, a *ipAddr, name string, args []any) (any, bool, error) {
	if m := in.methods.ipAddr[name]; m != nil {
		return m(in, line, a, name, args, nil)
	}
	return nil, false, nil
}

// ipAddrMethods are IPAddr's methods, by name.
func ipAddrMethods() methodTable[*ipAddr] {
	t := methodTable[*ipAddr]{}
	t.def("to_s to_string", func(in *interp, line int, a *ipAddr, name string, args []any, blk *blockVal) (any, bool, error) {
		addr := a.prefix.Addr()
		return newStr(addr.String()), true, nil
	})
	t.def("ipv4?", func(in *interp, line int, a *ipAddr, name string, args []any, blk *blockVal) (any, bool, error) {
		addr := a.prefix.Addr()
		return addr.Is4(), true, nil
	})
	t.def("ipv6?", func(in *interp, line int, a *ipAddr, name string, args []any, blk *blockVal) (any, bool, error) {
		addr := a.prefix.Addr()
		return addr.Is6(), true, nil
	})
	t.def("prefix", func(in *interp, line int, a *ipAddr, name string, args []any, blk *blockVal) (any, bool, error) {
		return int64(a.prefix.Bits()), true, nil
	})
	t.def("to_i", func(in *interp, line int, a *ipAddr, name string, args []any, blk *blockVal) (any, bool, error) {
		return bigOrInt(new(big.Int).SetBytes(a.prefix.Addr().AsSlice())), true, nil
	})
	t.def("reverse", func(in *interp, line int, a *ipAddr, name string, args []any, blk *blockVal) (any, bool, error) {
		// The DNS PTR name: octets (IPv4) or nibbles (IPv6), last first.
		b := a.prefix.Addr().AsSlice()
		var parts []string
		if len(b) == 4 {
			for i := 3; i >= 0; i-- {
				parts = append(parts, fmt.Sprint(b[i]))
			}
			return newStr(strings.Join(parts, ".") + ".in-addr.arpa"), true, nil
		}
		for i := len(b) - 1; i >= 0; i-- {
			parts = append(parts, fmt.Sprintf("%x", b[i]&0xf), fmt.Sprintf("%x", b[i]>>4))
		}
		return newStr(strings.Join(parts, ".") + ".ip6.arpa"), true, nil
	})
	t.def("to_range", func(in *interp, line int, a *ipAddr, name string, args []any, blk *blockVal) (any, bool, error) {
		// The network's first and last addresses, each a host address.
		first := a.prefix.Masked().Addr()
		b := first.AsSlice()
		for i := a.prefix.Bits(); i < len(b)*8; i++ {
			b[i/8] |= 0x80 >> (i % 8)
		}
		last, _ := netip.AddrFromSlice(b)
		return &rrange{
			lo: &ipAddr{prefix: netip.PrefixFrom(first, first.BitLen())},
			hi: &ipAddr{prefix: netip.PrefixFrom(last, last.BitLen())},
		}, true, nil
	})
	t.def("include? ===", func(in *interp, line int, a *ipAddr, name string, args []any, blk *blockVal) (any, bool, error) {
		if len(args) != 1 {
			return nil, false, nil
		}
		other, ok := args[0].(*ipAddr)
		if !ok {
			v, err := in.newIPAddr(line, args)
			if err != nil {
				return nil, true, err
			}
			other = v.(*ipAddr)
		}
		return a.prefix.Contains(other.prefix.Addr()) && other.prefix.Bits() >= a.prefix.Bits(), true, nil
	})
	return t
}
