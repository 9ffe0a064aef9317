package ruby

import (
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"hash"
	"math"
	"math/big"
	"path"
	"strconv"
	"strings"

	"github.com/marionette-dev/marionette/dataformat"
)

// callMethod dispatches a method call on a Ruby value. Large results cost
// steps in proportion to their size, so that loops over big strings or
// arrays stay within the time bound.
func (in *interp) callMethod(line int, recv any, name string, args []any, blk *blockVal) (any, error) {
	in.steps++
	if in.steps > MaxSteps {
		return nil, in.tooManySteps(line)
	}
	v, err := in.dispatch(line, recv, name, args, blk)
	switch r := v.(type) {
	case *rstr:
		in.steps += len(r.s) / 64
	case *rarray:
		in.steps += len(r.a) / 8
	case *rhash:
		in.steps += len(r.keys) / 8
	}
	return v, err
}

func (in *interp) dispatch(line int, recv any, name string, args []any, blk *blockVal) (any, error) {
	if v, ok, err := in.objectMethod(line, recv, name, args); ok || err != nil {
		return v, err
	}
	// Shellwords' String and Array extensions.
	switch r := recv.(type) {
	case *rstr:
		if !in.hasShellwords() {
			break
		}
		switch name {
		case "shellescape":
			return newStr(shellEscape(r.s)), nil
		case "shellsplit", "shellwords":
			v, _, err := in.shellSplitValue(line, r.s)
			return v, err
		}
	case *rarray:
		if name == "shelljoin" && in.hasShellwords() {
			return newStr(in.shellJoin(r)), nil
		}
	}
	var (
		v   any
		ok  bool
		err error
	)
	switch r := recv.(type) {
	case nil:
		v, ok, err = in.nilMethod(line, name, args)
	case bool:
		v, ok, err = in.boolMethod(line, r, name, args)
	case int64:
		v, ok, err = in.intMethod(line, r, name, args, blk)
	case float64:
		v, ok, err = in.floatMethod(line, r, name, args)
	case *rbig:
		v, ok, err = in.bigMethod(line, r, name, args)
	case *resourceObj:
		v, ok, err = in.resourceMethod(line, r, name, args)
	case *compilerPart:
		v, ok, err = in.compilerPartMethod(line, r, name, args)
	case *puppetObj:
		if m, isReceiver := r.v.(MethodReceiver); isReceiver && blk != nil {
			v, ok, err = in.receiverBlockMethod(line, m, name, args, blk)
			break
		}
		v, ok, err = in.puppetObjMethod(line, r, name, args)
	case *rstr:
		v, ok, err = in.strMethod(line, r, name, args, blk)
	case symbol:
		v, ok, err = in.symbolMethod(line, r, name, args, blk)
	case *rarray:
		v, ok, err = in.arrayMethod(line, r, name, args, blk)
	case *rhash:
		v, ok, err = in.hashMethod(line, r, name, args, blk)
	case *rrange:
		v, ok, err = in.rangeMethod(line, r, name, args, blk)
	case *rregexp:
		v, ok, err = in.regexpMethod(line, r, name, args)
	case *matchData:
		v, ok, err = in.matchDataMethod(line, r, name, args)
	case *rclass:
		v, ok, err = in.classMethod(line, r, name, args, blk)
	case *enumerator:
		v, ok, err = in.enumeratorMethod(line, r, name, args, blk)
	case *ipAddr:
		v, ok, err = in.ipAddrMethod(line, r, name, args)
	case *uriObj:
		v, ok, err = in.uriMethod(line, r, name, args)
	case *envObj:
		v, ok, err = in.envMethod(line, name, args)
	case *knownTypesObj:
		v, ok, err = in.knownTypesMethod(line, name, args)
	case *resourceTypeObj:
		v, ok, err = in.resourceTypeMethod(line, r, name, args)
	case *typeParserObj:
		v, ok, err = in.typeParserMethod(line, name, args)
	case *moduleObj:
		v, ok, err = in.moduleMethod(line, r, name, args)
	case *gemVersion:
		v, ok, err = in.gemVersionMethod(line, r, name, args)
	case *rmodule:
		v, ok, err = in.callModule(line, r, name, args, blk)
	case *pbkdf2Obj:
		v, ok, err = in.pbkdf2Method(line, r, name, args)
	case *osslDigest:
		if meth := in.methods.digest[name]; meth != nil {
			v, ok, err = meth(in, line, r, name, args, blk)
		}
	case *osslHMAC:
		if meth := in.methods.hmac[name]; meth != nil {
			v, ok, err = meth(in, line, r, name, args, blk)
		}
	case *procVal:
		if meth := in.methods.proc[name]; meth != nil {
			v, ok, err = meth(in, line, r, name, args, blk)
		}
	case *x509Cert:
		v, ok, err = in.x509Method(line, r, name, args)
	case *rsensitive:
		v, ok, err = in.sensitiveMethod(line, r, name, args, blk)
	case *rsaKey:
		v, ok, err = in.rsaKeyMethod(line, r, name, args)
	case *rexception:
		switch name {
		case "message", "to_s":
			v, ok = newStr(r.msg), true
		case "class":
			v, ok = &rclass{r.class}, true
		}
	case *scopeObj:
		if r.top {
			return in.callTopScope(line, name, args)
		}
		return in.callScope(line, name, args)
	case *self:
		return in.callSelf(line, name, args, blk)
	}
	if err != nil || ok {
		return v, err
	}
	if recv == nil {
		// Ruby raises NoMethodError here; templates rely on it failing.
		return nil, in.errorf(line, "NoMethodError", "undefined method `%s' for nil:NilClass", name)
	}
	return nil, in.noMethod(line, recv, name)
}

// objectMethod dispatches a call of one of Object's methods through objectMethods.
func (in *interp) objectMethod(line int, recv any, name string, args []any) (any, bool, error) {
	if meth := in.methods.object[name]; meth != nil {
		return meth(in, line, recv, name, args, nil)
	}
	return nil, false, nil
}

// objectMethods are Object's methods, by name.
func objectMethods() methodTable[any] {
	t := methodTable[any]{}
	t.def("nil?", func(in *interp, line int, recv any, name string, args []any, blk *blockVal) (any, bool, error) {
		return recv == nil, true, nil
	})
	// A module extending an object runs its extended hook (elastic's
	// SortedHash re-inserts a Hash's pairs sorted); its instance methods
	// are not added.
	t.def("extend", func(in *interp, line int, recv any, name string, args []any, blk *blockVal) (any, bool, error) {
		for _, a := range args {
			m, ok := a.(*rmodule)
			if !ok {
				return nil, false, nil
			}
			if _, _, err := in.callModule(line, m, "extended", []any{recv}, nil); err != nil {
				return nil, true, err
			}
		}
		return recv, true, nil
	})
	t.def("is_a? kind_of? instance_of?", func(in *interp, line int, recv any, name string, args []any, blk *blockVal) (any, bool, error) {
		if len(args) != 1 {
			return nil, false, nil
		}
		c, ok := args[0].(*rclass)
		if !ok {
			return nil, true, in.errorf(line, "TypeError", "class or module required")
		}
		if name == "instance_of?" {
			want := c.name
			if want == "Fixnum" || want == "Bignum" {
				// Ruby 2.4 to 3.1 keep both as deprecated names of Integer.
				want = "Integer"
			}
			return className(recv) == want, true, nil
		}
		return isA(recv, c.name), true, nil
	})
	t.def("== eql? equal?", func(in *interp, line int, recv any, name string, args []any, blk *blockVal) (any, bool, error) {
		if len(args) != 1 {
			return nil, false, nil
		}
		if name == "eql?" {
			return hashKey(recv) == hashKey(args[0]), true, nil
		}
		return rubyEqual(recv, args[0]), true, nil
	})
	t.def("===", func(in *interp, line int, recv any, name string, args []any, blk *blockVal) (any, bool, error) {
		if len(args) == 1 {
			r, err := in.caseEq(line, recv, args[0])
			return r, true, err
		}
		return nil, false, nil
	})
	t.def("!", func(in *interp, line int, recv any, name string, args []any, blk *blockVal) (any, bool, error) {
		return !truthy(recv), true, nil
	})
	// Object#=~, deprecated but still there in the Ruby 3.1 that runs
	// Puppet 7 on Debian: nil for anything but strings, symbols and
	// regexps, so `true !~ /re/` is true.
	t.def("=~", func(in *interp, line int, recv any, name string, args []any, blk *blockVal) (any, bool, error) {
		switch recv.(type) {
		case *rstr, symbol, *rregexp, *scopeObj, *self:
		default:
			if len(args) == 1 {
				return nil, true, nil
			}
		}
		return nil, false, nil
	})
	t.def("inspect", func(in *interp, line int, recv any, name string, args []any, blk *blockVal) (any, bool, error) {
		if _, ok := recv.(*puppetObj); !ok {
			s := inspectMax(recv, in.maxString)
			if len(s) > in.maxString {
				return nil, true, in.stringTooLarge(line)
			}
			return newStr(s), true, nil
		}
		return nil, false, nil
	})
	t.def("to_s", func(in *interp, line int, recv any, name string, args []any, blk *blockVal) (any, bool, error) {
		if len(args) == 0 {
			switch recv.(type) {
			case *self, *scopeObj:
			default:
				s, err := in.callToS(line, recv)
				return newStr(s), true, err
			}
		}
		return nil, false, nil
	})
	t.def("class", func(in *interp, line int, recv any, name string, args []any, blk *blockVal) (any, bool, error) {
		return &rclass{className(recv)}, true, nil
	})
	t.def("freeze", func(in *interp, line int, recv any, name string, args []any, blk *blockVal) (any, bool, error) {
		switch r := recv.(type) {
		case *rstr:
			r.frozen = true
		case *rarray:
			r.frozen = true
		case *rhash:
			r.frozen = true
		}
		return recv, true, nil
	})
	t.def("frozen?", func(in *interp, line int, recv any, name string, args []any, blk *blockVal) (any, bool, error) {
		switch r := recv.(type) {
		case *rstr:
			return r.frozen, true, nil
		case *rarray:
			return r.frozen, true, nil
		case *rhash:
			return r.frozen, true, nil
		}
		return true, true, nil
	})
	t.def("dup clone", func(in *interp, line int, recv any, name string, args []any, blk *blockVal) (any, bool, error) {
		switch r := recv.(type) {
		case *rstr:
			return &rstr{s: r.s, frozen: name == "clone" && r.frozen}, true, nil
		case *rarray:
			return &rarray{a: append([]any(nil), r.a...)}, true, nil
		case *rhash:
			return r.copy(), true, nil
		}
		return recv, true, nil
	})
	t.def("respond_to?", func(in *interp, line int, recv any, name string, args []any, blk *blockVal) (any, bool, error) {
		if len(args) >= 1 {
			m := toS(args[0])
			return in.respondTo(recv, m), true, nil
		}
		return nil, false, nil
	})
	t.def("then yield_self tap itself", func(in *interp, line int, recv any, name string, args []any, blk *blockVal) (any, bool, error) {
		if name == "itself" {
			return recv, true, nil
		}
		return nil, false, nil
	})
	t.def("to_yaml", func(in *interp, line int, recv any, name string, args []any, blk *blockVal) (any, bool, error) {
		if len(args) == 0 {
			switch recv.(type) {
			case nil, bool, int64, float64, *rstr, symbol, *rarray, *rhash:
				y, err := in.toYAML(line, recv)
				return newStr(y), true, err
			}
		}
		return nil, false, nil
	})
	// to_pson is Puppet's PSON, which writes data as compact JSON does
	// (govuk's aptly: inline_template("<%= Hash[@config.sort].to_pson %>")).
	t.def("to_json to_pson", func(in *interp, line int, recv any, name string, args []any, blk *blockVal) (any, bool, error) {
		switch recv.(type) {
		case *self, *scopeObj:
		default:
			if len(args) == 0 {
				var g dataformat.JSONGenerator
				err := in.writeJSON(line, &g, recv)
				return newStr(g.Text()), true, err
			}
		}
		return nil, false, nil
	})
	t.def("instance_variable_get", func(in *interp, line int, recv any, name string, args []any, blk *blockVal) (any, bool, error) {
		if _, ok := recv.(*self); ok && len(args) == 1 {
			return in.ivar(strings.TrimPrefix(toS(args[0]), "@")), true, nil
		}
		return nil, false, nil
	})
	return t
}

// respondTo answers respond_to?: Ruby's own method tables for the core
// classes, and what Puppet's scope offers.
func (in *interp) respondTo(recv any, m string) bool {
	switch recv.(type) {
	case *scopeObj:
		switch m {
		case "lookupvar", "[]", "call_function", "setvar", "include?":
			return true
		case "lookupdefaults":
			_, ok := in.scope.(DefaultsLister)
			return ok
		case "to_hash":
			_, ok := in.scope.(VariableLister)
			return ok
		}
		return strings.HasPrefix(m, "function_")
	case *self:
		return m == "scope" || m == "has_variable?" || in.defs[m] != nil
	case *puppetObj, *rclass, *enumerator:
		return m == "to_s" || m == "inspect"
	case *rsensitive:
		return m == "unwrap" || m == "to_s" || m == "inspect"
	}
	return rubyHasMethod(className(recv), m)
}

// nilMethod dispatches a call of one of nil's methods through nilMethods.
func (in *interp) nilMethod(line int, name string, args []any) (any, bool, error) {
	if meth := in.methods.nilClass[name]; meth != nil {
		return meth(in, line, struct{}{}, name, args, nil)
	}
	return nil, false, nil
}

// nilMethods are NilClass's methods, by name.
func nilMethods() methodTable[struct{}] {
	t := methodTable[struct{}]{}
	t.def("to_a", func(in *interp, line int, _ struct{}, name string, args []any, blk *blockVal) (any, bool, error) {
		return &rarray{}, true, nil
	})
	t.def("to_i", func(in *interp, line int, _ struct{}, name string, args []any, blk *blockVal) (any, bool, error) {
		return int64(0), true, nil
	})
	t.def("to_f", func(in *interp, line int, _ struct{}, name string, args []any, blk *blockVal) (any, bool, error) {
		return 0.0, true, nil
	})
	t.def("to_h", func(in *interp, line int, _ struct{}, name string, args []any, blk *blockVal) (any, bool, error) {
		return newHash(), true, nil
	})
	t.def("&", func(in *interp, line int, _ struct{}, name string, args []any, blk *blockVal) (any, bool, error) {
		return false, true, nil
	})
	t.def("|", func(in *interp, line int, _ struct{}, name string, args []any, blk *blockVal) (any, bool, error) {
		if len(args) == 1 {
			return truthy(args[0]), true, nil
		}
		return nil, false, nil
	})
	return t
}

// boolMethod dispatches a call of one of true's or false's methods through
// boolMethods.
func (in *interp) boolMethod(line int, b bool, name string, args []any) (any, bool, error) {
	if meth := in.methods.boolean[name]; meth != nil && len(args) == 1 {
		return meth(in, line, b, name, args, nil)
	}
	return nil, false, nil
}

// boolMethods are TrueClass's and FalseClass's methods (each taking one
// argument), by name.
func boolMethods() methodTable[bool] {
	t := methodTable[bool]{}
	t.def("&", func(in *interp, line int, b bool, name string, args []any, blk *blockVal) (any, bool, error) {
		return b && truthy(args[0]), true, nil
	})
	t.def("|", func(in *interp, line int, b bool, name string, args []any, blk *blockVal) (any, bool, error) {
		return b || truthy(args[0]), true, nil
	})
	t.def("^", func(in *interp, line int, b bool, name string, args []any, blk *blockVal) (any, bool, error) {
		return b != truthy(args[0]), true, nil
	})
	return t
}

// symbolMethod dispatches a call of one of Symbol's methods through symbolMethods.
func (in *interp) symbolMethod(line int, s symbol, name string, args []any, blk *blockVal) (any, bool, error) {
	if m := in.methods.symbol[name]; m != nil {
		return m(in, line, s, name, args, blk)
	}
	return nil, false, nil
}

// symbolMethods are Symbol's methods, by name.
func symbolMethods() methodTable[symbol] {
	t := methodTable[symbol]{}
	t.def("to_sym", func(in *interp, line int, s symbol, name string, args []any, blk *blockVal) (any, bool, error) {
		return s, true, nil
	})
	t.def("to_proc", func(in *interp, line int, s symbol, name string, args []any, blk *blockVal) (any, bool, error) {
		return nil, true, in.unsupported(line, "Symbol#to_proc outside a block argument")
	})
	t.def("<=>", func(in *interp, line int, s symbol, name string, args []any, blk *blockVal) (any, bool, error) {
		if len(args) == 1 {
			c, ok := compare(s, args[0])
			if !ok {
				return nil, true, nil
			}
			return int64(c), true, nil
		}
		return nil, false, nil
	})
	t.def("length size upcase downcase capitalize empty? start_with? end_with? [] =~ match match? succ swapcase", func(in *interp, line int, s symbol, name string, args []any, blk *blockVal) (any, bool, error) {
		v, ok, err := in.strMethod(line, &rstr{s: string(s), frozen: true}, name, args, blk)
		if rs, isStr := v.(*rstr); isStr && ok && err == nil && name != "[]" {
			return symbol(rs.s), true, nil
		}
		return v, ok, err
	})
	return t
}

func (in *interp) classMethod(line int, c *rclass, name string, args []any, blk *blockVal) (any, bool, error) {
	if f := in.methods.class[c.name+"."+name]; f != nil {
		return f(in, line, c.name, name, args)
	}
	if c.name == "PBKDF2" && name == "new" && in.pbkdf2 {
		return in.newPBKDF2(line, args, blk)
	}
	switch name {
	case "escape", "quote":
		if c.name == "Regexp" && len(args) == 1 {
			s, err := in.strArg(line, args, 0)
			if err != nil {
				return nil, true, err
			}
			return newStr(rubyRegexpEscape(s)), true, nil
		}
	case "last_match":
		// $~ of the running method, or its group n (an Integer).
		if c.name == "Regexp" && len(args) <= 1 {
			if len(args) == 0 || in.match == nil {
				if in.match == nil {
					return nil, true, nil
				}
				return in.match, true, nil
			}
			n, ok := args[0].(int64)
			if !ok {
				return nil, true, in.unsupported(line, "Regexp.last_match(%s)", inspect(args[0]))
			}
			return in.match.group(int(n)), true, nil
		}
	case "union":
		if c.name == "Regexp" {
			var parts []string
			flat, ok := flatten(args, -1, nil)
			if !ok {
				return nil, true, in.errorf(line, "ArgumentError", "tried to flatten recursive array")
			}
			for _, a := range flat {
				switch a := a.(type) {
				case *rregexp:
					parts = append(parts, "(?"+regexpFlags(a.opts)+":"+a.src+")")
				case *rstr:
					parts = append(parts, rubyRegexpEscape(a.s))
				default:
					return nil, true, in.errorf(line, "TypeError", "no implicit conversion of %s into String", className(a))
				}
			}
			re, err := in.compileRegexp(line, strings.Join(parts, "|"), "")
			return re, true, err
		}
	case "name", "to_s", "inspect":
		return newStr(c.name), true, nil
	case "new":
		switch c.name {
		case "Hash":
			switch {
			case len(args) == 0:
				h := newHash()
				h.dfltProc = blk
				return h, true, nil
			case len(args) == 1 && blk == nil:
				h := newHash()
				h.dflt = args[0]
				return h, true, nil
			}
		case "Array":
			switch len(args) {
			case 0:
				return &rarray{}, true, nil
			case 1, 2:
				n, ok := args[0].(int64)
				switch {
				case !ok:
					return nil, true, in.unsupported(line, "Array.new with %s", inspect(args[0]))
				case n < 0:
					return nil, true, in.errorf(line, "ArgumentError", "negative array size")
				case n > math.MaxInt64/8:
					return nil, true, in.errorf(line, "ArgumentError", "array size too big")
				case n > MaxArraySize:
					return nil, true, in.arrayTooLarge(line)
				}
				var fill any
				if len(args) == 2 {
					fill = args[1]
				}
				a := make([]any, n)
				for i := range a {
					a[i] = fill
					if blk != nil && len(args) == 1 {
						// Array.new(n) { |i| ... } fills with the block's values.
						v, err := in.yield(line, blk, int64(i))
						if err != nil {
							return nil, true, err
						}
						a[i] = v
					}
				}
				return &rarray{a: a}, true, nil
			}
		case "String":
			if len(args) == 0 {
				return newStr(""), true, nil
			}
			if s, ok := args[0].(*rstr); ok && len(args) == 1 {
				return newStr(s.s), true, nil
			}
		}
	}
	return nil, false, nil
}

// numeric helpers ------------------------------------------------------------

func toFloat(v any) (float64, bool) {
	switch v := v.(type) {
	case int64:
		return float64(v), true
	case float64:
		return v, true
	}
	return 0, false
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

func floorMod(a, b int64) int64 {
	m := a % b
	if m != 0 && ((m < 0) != (b < 0)) {
		m += b
	}
	return m
}

func (in *interp) coerceError(line int, v any, target string) error {
	what := className(v)
	if v == nil {
		what = "nil"
	}
	return in.errorf(line, "TypeError", "%s can't be coerced into %s", what, target)
}

// intMethod dispatches a call of one of Integer's methods through integerMethods.
func (in *interp) intMethod(line int, n int64, name string, args []any, blk *blockVal) (any, bool, error) {
	if len(args) == 1 {
		if m, ok := args[0].(int64); ok {
			switch name {
			case "+":
				r := n + m
				if (r > n) != (m > 0) {
					return nil, true, in.unsupported(line, "integer overflow")
				}
				return r, true, nil
			case "-":
				r := n - m
				if (r < n) != (m > 0) {
					return nil, true, in.unsupported(line, "integer overflow")
				}
				return r, true, nil
			case "*":
				if n != 0 && ((n*m)/n != m || (n == -1 && m == math.MinInt64) || (m == -1 && n == math.MinInt64)) {
					return nil, true, in.unsupported(line, "integer overflow")
				}
				return n * m, true, nil
			case "/", "div":
				if m == 0 {
					return nil, true, in.errorf(line, "ZeroDivisionError", "divided by 0")
				}
				return floorDiv(n, m), true, nil
			case "%", "modulo":
				if m == 0 {
					return nil, true, in.errorf(line, "ZeroDivisionError", "divided by 0")
				}
				return floorMod(n, m), true, nil
			case "**", "pow":
				if m < 0 {
					return nil, true, in.unsupported(line, "Rational results (%d ** %d)", n, m)
				}
				r, ok := intPow(n, m)
				if !ok {
					return nil, true, in.unsupported(line, "integer overflow")
				}
				return r, true, nil
			case "&":
				return n & m, true, nil
			case "|":
				return n | m, true, nil
			case "^":
				return n ^ m, true, nil
			case "<<":
				return n << uint(m&63), true, nil
			case ">>":
				return n >> uint(m&63), true, nil
			}
		}
		if f, ok := args[0].(float64); ok {
			switch name {
			case "+", "-", "*", "/", "%", "**", "fdiv":
				return in.floatArith(line, float64(n), name, f)
			}
		}
		switch name {
		case "+", "-", "*", "/", "%", "**":
			return nil, true, in.coerceError(line, args[0], "Integer")
		}
	}
	if m := in.methods.integer[name]; m != nil {
		return m(in, line, n, name, args, blk)
	}
	return nil, false, nil
}

// integerMethods are Integer's methods, by name.
func integerMethods() methodTable[int64] {
	t := methodTable[int64]{}
	t.def("< > <= >= <=> between?", func(in *interp, line int, n int64, name string, args []any, blk *blockVal) (any, bool, error) {
		return in.comparison(line, n, name, args)
	})
	t.def("-@", func(in *interp, line int, n int64, name string, args []any, blk *blockVal) (any, bool, error) {
		return -n, true, nil
	})
	t.def("~", func(in *interp, line int, n int64, name string, args []any, blk *blockVal) (any, bool, error) {
		return ^n, true, nil
	})
	t.def("to_i to_int floor ceil round truncate ord", func(in *interp, line int, n int64, name string, args []any, blk *blockVal) (any, bool, error) {
		if len(args) == 0 {
			return n, true, nil
		}
		return nil, false, nil
	})
	t.def("to_f", func(in *interp, line int, n int64, name string, args []any, blk *blockVal) (any, bool, error) {
		return float64(n), true, nil
	})
	t.def("fdiv", func(in *interp, line int, n int64, name string, args []any, blk *blockVal) (any, bool, error) {
		if len(args) == 1 {
			if f, ok := toFloat(args[0]); ok {
				return float64(n) / f, true, nil
			}
		}
		return nil, false, nil
	})
	t.def("divmod", func(in *interp, line int, n int64, name string, args []any, blk *blockVal) (any, bool, error) {
		if len(args) == 1 {
			if m, ok := args[0].(int64); ok {
				if m == 0 {
					return nil, true, in.errorf(line, "ZeroDivisionError", "divided by 0")
				}
				return &rarray{a: []any{floorDiv(n, m), floorMod(n, m)}}, true, nil
			}
		}
		return nil, false, nil
	})
	t.def("to_s inspect", func(in *interp, line int, n int64, name string, args []any, blk *blockVal) (any, bool, error) {
		if len(args) == 1 {
			base, ok := args[0].(int64)
			if !ok || base < 2 || base > 36 {
				return nil, true, in.errorf(line, "ArgumentError", "invalid radix")
			}
			return newStr(strconv.FormatInt(n, int(base))), true, nil
		}
		return nil, false, nil
	})
	t.def("abs", func(in *interp, line int, n int64, name string, args []any, blk *blockVal) (any, bool, error) {
		if n < 0 {
			return -n, true, nil
		}
		return n, true, nil
	})
	t.def("zero?", func(in *interp, line int, n int64, name string, args []any, blk *blockVal) (any, bool, error) {
		return n == 0, true, nil
	})
	t.def("positive?", func(in *interp, line int, n int64, name string, args []any, blk *blockVal) (any, bool, error) {
		return n > 0, true, nil
	})
	t.def("negative?", func(in *interp, line int, n int64, name string, args []any, blk *blockVal) (any, bool, error) {
		return n < 0, true, nil
	})
	t.def("even?", func(in *interp, line int, n int64, name string, args []any, blk *blockVal) (any, bool, error) {
		return n%2 == 0, true, nil
	})
	t.def("odd?", func(in *interp, line int, n int64, name string, args []any, blk *blockVal) (any, bool, error) {
		return n%2 != 0, true, nil
	})
	t.def("succ next", func(in *interp, line int, n int64, name string, args []any, blk *blockVal) (any, bool, error) {
		return n + 1, true, nil
	})
	t.def("pred", func(in *interp, line int, n int64, name string, args []any, blk *blockVal) (any, bool, error) {
		return n - 1, true, nil
	})
	t.def("integer?", func(in *interp, line int, n int64, name string, args []any, blk *blockVal) (any, bool, error) {
		return true, true, nil
	})
	t.def("chr", func(in *interp, line int, n int64, name string, args []any, blk *blockVal) (any, bool, error) {
		if n >= 0 && n < 256 {
			return newStr(string([]byte{byte(n)})), true, nil
		}
		return nil, false, nil
	})
	t.def("times", func(in *interp, line int, n int64, name string, args []any, blk *blockVal) (any, bool, error) {
		if blk == nil {
			// An Enumerator over 0...n, as module functions chain
			// n.times.map { ... }.
			if n > MaxArraySize {
				return nil, true, in.arrayTooLarge(line)
			}
			items := make([]any, max(n, 0))
			for i := range items {
				items[i] = int64(i)
			}
			return &enumerator{items: items, method: "each"}, true, nil
		}
		for i := int64(0); i < n; i++ {
			if _, err := in.yield(line, blk, i); err != nil {
				return loopResult(err)
			}
		}
		return n, true, nil
	})
	t.def("upto downto", func(in *interp, line int, n int64, name string, args []any, blk *blockVal) (any, bool, error) {
		if blk == nil || len(args) != 1 {
			return nil, false, nil
		}
		m, ok := args[0].(int64)
		if !ok {
			return nil, false, nil
		}
		step := int64(1)
		if name == "downto" {
			step = -1
		}
		for i := n; (step > 0 && i <= m) || (step < 0 && i >= m); i += step {
			if _, err := in.yield(line, blk, i); err != nil {
				return loopResult(err)
			}
		}
		return n, true, nil
	})
	return t
}

// loopResult turns a break out of a loop into its value; other errors pass.
func loopResult(err error) (any, bool, error) {
	if b, ok := err.(*breakSignal); ok {
		return b.v, true, nil
	}
	return nil, true, err
}

func (in *interp) floatArith(line int, a float64, op string, b float64) (any, bool, error) {
	switch op {
	case "+":
		return a + b, true, nil
	case "-":
		return a - b, true, nil
	case "*":
		return a * b, true, nil
	case "/", "fdiv":
		return a / b, true, nil
	case "%", "modulo":
		m := math.Mod(a, b)
		if m != 0 && (m < 0) != (b < 0) {
			m += b
		}
		return m, true, nil
	case "**":
		return math.Pow(a, b), true, nil
	}
	return nil, false, nil
}

func (in *interp) comparison(line int, recv any, name string, args []any) (any, bool, error) {
	if name == "between?" {
		if len(args) != 2 {
			return nil, false, nil
		}
		lo, ok1 := compare(recv, args[0])
		hi, ok2 := compare(recv, args[1])
		if !ok1 || !ok2 {
			return nil, true, in.errorf(line, "ArgumentError", "comparison of %s with %s failed", className(recv), className(args[0]))
		}
		return lo >= 0 && hi <= 0, true, nil
	}
	if len(args) != 1 {
		return nil, false, nil
	}
	c, ok := compare(recv, args[0])
	if name == "<=>" {
		if !ok {
			return nil, true, nil
		}
		return int64(c), true, nil
	}
	if !ok {
		what := inspect(args[0])
		if _, isNum := args[0].(int64); !isNum {
			what = className(args[0])
		}
		return nil, true, in.errorf(line, "ArgumentError", "comparison of %s with %s failed", className(recv), what)
	}
	switch name {
	case "<":
		return c < 0, true, nil
	case ">":
		return c > 0, true, nil
	case "<=":
		return c <= 0, true, nil
	}
	return c >= 0, true, nil
}

// floatMethod dispatches a call of one of Float's methods through floatMethods.
func (in *interp) floatMethod(line int, f float64, name string, args []any) (any, bool, error) {
	if len(args) == 1 {
		if b, ok := toFloat(args[0]); ok {
			if v, ok, err := in.floatArith(line, f, name, b); ok {
				return v, ok, err
			}
		} else {
			switch name {
			case "+", "-", "*", "/", "%", "**":
				return nil, true, in.coerceError(line, args[0], "Float")
			}
		}
	}
	if m := in.methods.float[name]; m != nil {
		return m(in, line, f, name, args, nil)
	}
	return nil, false, nil
}

// floatMethods are Float's methods, by name.
func floatMethods() methodTable[float64] {
	t := methodTable[float64]{}
	t.def("< > <= >= <=> between?", func(in *interp, line int, f float64, name string, args []any, blk *blockVal) (any, bool, error) {
		return in.comparison(line, f, name, args)
	})
	t.def("-@", func(in *interp, line int, f float64, name string, args []any, blk *blockVal) (any, bool, error) {
		return -f, true, nil
	})
	t.def("to_f", func(in *interp, line int, f float64, name string, args []any, blk *blockVal) (any, bool, error) {
		return f, true, nil
	})
	t.def("to_i to_int truncate", func(in *interp, line int, f float64, name string, args []any, blk *blockVal) (any, bool, error) {
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, true, in.errorf(line, "FloatDomainError", "%s", formatFloat(f))
		}
		return int64(f), true, nil
	})
	t.def("floor", func(in *interp, line int, f float64, name string, args []any, blk *blockVal) (any, bool, error) {
		return int64(math.Floor(f)), true, nil
	})
	t.def("ceil", func(in *interp, line int, f float64, name string, args []any, blk *blockVal) (any, bool, error) {
		return int64(math.Ceil(f)), true, nil
	})
	t.def("round", func(in *interp, line int, f float64, name string, args []any, blk *blockVal) (any, bool, error) {
		if len(args) == 0 {
			return int64(math.Round(f)), true, nil
		}
		if d, ok := args[0].(int64); ok && d >= 0 && d < 16 {
			p := math.Pow(10, float64(d))
			r := math.Round(f*p) / p
			if d == 0 {
				return int64(r), true, nil
			}
			return r, true, nil
		}
		return nil, false, nil
	})
	t.def("abs", func(in *interp, line int, f float64, name string, args []any, blk *blockVal) (any, bool, error) {
		return math.Abs(f), true, nil
	})
	t.def("zero?", func(in *interp, line int, f float64, name string, args []any, blk *blockVal) (any, bool, error) {
		return f == 0, true, nil
	})
	t.def("nan?", func(in *interp, line int, f float64, name string, args []any, blk *blockVal) (any, bool, error) {
		return math.IsNaN(f), true, nil
	})
	t.def("infinite?", func(in *interp, line int, f float64, name string, args []any, blk *blockVal) (any, bool, error) {
		if math.IsInf(f, 1) {
			return int64(1), true, nil
		}
		if math.IsInf(f, -1) {
			return int64(-1), true, nil
		}
		return nil, true, nil
	})
	t.def("positive?", func(in *interp, line int, f float64, name string, args []any, blk *blockVal) (any, bool, error) {
		return f > 0, true, nil
	})
	t.def("negative?", func(in *interp, line int, f float64, name string, args []any, blk *blockVal) (any, bool, error) {
		return f < 0, true, nil
	})
	t.def("integer?", func(in *interp, line int, f float64, name string, args []any, blk *blockVal) (any, bool, error) {
		return false, true, nil
	})
	return t
}

// kernelNumber implements Kernel#Integer and Kernel#Float.
func (in *interp) kernelNumber(line int, kind string, v any) (any, error) {
	switch v := v.(type) {
	case int64:
		if kind == "Float" {
			return float64(v), nil
		}
		return v, nil
	case float64:
		if kind == "Integer" {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, in.errorf(line, "FloatDomainError", "%s", formatFloat(v))
			}
			return int64(v), nil
		}
		return v, nil
	case *rstr:
		s := strings.TrimSpace(strings.ReplaceAll(v.s, "_", ""))
		if kind == "Integer" {
			if n, err := strconv.ParseInt(s, 0, 64); err == nil {
				return n, nil
			}
			return nil, in.errorf(line, "ArgumentError", "invalid value for Integer(): %s", quoteString(v.s))
		}
		if f, err := strconv.ParseFloat(s, 64); err == nil && !strings.ContainsAny(s, "xXnN") {
			return f, nil
		}
		return nil, in.errorf(line, "ArgumentError", "invalid value for Float(): %s", quoteString(v.s))
	case nil:
		return nil, in.errorf(line, "TypeError", "can't convert nil into %s", kind)
	}
	return nil, in.errorf(line, "TypeError", "can't convert %s into %s", className(v), kind)
}

// leadingInt is String#to_i: the integer at the start of s, else 0.
func leadingInt(s string, base int) any {
	s = strings.TrimLeft(s, " \t\n\v\f\r")
	neg := false
	if s != "" && (s[0] == '-' || s[0] == '+') {
		neg = s[0] == '-'
		s = s[1:]
	}
	// Digits accumulate in an int64 until one more would overflow it,
	// then in a big.Int: Ruby's Integer has no limit (an MD5 digest's
	// hex().to_i(16) is 128 bits).
	var n int64
	var bn *big.Int
	for i := 0; i < len(s); i++ {
		c := s[i]
		var d int
		switch {
		case c >= '0' && c <= '9':
			d = int(c - '0')
		case c >= 'a' && c <= 'z':
			d = int(c-'a') + 10
		case c >= 'A' && c <= 'Z':
			d = int(c-'A') + 10
		case c == '_' && i > 0 && i+1 < len(s) && s[i+1] != '_':
			continue
		default:
			d = 99
		}
		if d >= base {
			break
		}
		if bn == nil && n > (math.MaxInt64-int64(d))/int64(base) {
			bn = big.NewInt(n)
		}
		if bn != nil {
			bn.Mul(bn, big.NewInt(int64(base)))
			bn.Add(bn, big.NewInt(int64(d)))
			continue
		}
		n = n*int64(base) + int64(d)
	}
	if bn != nil {
		if neg {
			bn.Neg(bn)
		}
		return bigOrInt(bn)
	}
	if neg {
		n = -n
	}
	return n
}

// leadingFloat is String#to_f.
func leadingFloat(s string) float64 {
	s = strings.TrimLeft(s, " \t\n\v\f\r")
	end := 0
	seenDigit, seenDot, seenExp := false, false, false
	for end < len(s) {
		c := s[end]
		switch {
		case c >= '0' && c <= '9':
			seenDigit = true
		case (c == '+' || c == '-') && (end == 0 || s[end-1] == 'e' || s[end-1] == 'E'):
		case c == '.' && !seenDot && !seenExp && end+1 < len(s) && s[end+1] >= '0' && s[end+1] <= '9':
			seenDot = true
		case (c == 'e' || c == 'E') && seenDigit && !seenExp:
			seenExp = true
		case c == '_' && seenDigit:
		default:
			goto done
		}
		end++
	}
done:
	for end > 0 {
		if f, err := strconv.ParseFloat(strings.ReplaceAll(s[:end], "_", ""), 64); err == nil {
			return f
		}
		end--
	}
	return 0
}

// rubyRegexpEscape is Regexp.escape: it escapes regexp metacharacters and
// spells out whitespace control characters.
func rubyRegexpEscape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '.', '*', '?', '+', '^', '$', '|', '(', ')', '[', ']', '{', '}', '\\', '-', '#':
			b.WriteByte('\\')
			b.WriteByte(c)
		case ' ':
			b.WriteString("\\ ")
		case '\n':
			b.WriteString("\\n")
		case '\t':
			b.WriteString("\\t")
		case '\r':
			b.WriteString("\\r")
		case '\f':
			b.WriteString("\\f")
		case '\v':
			b.WriteString("\\v")
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// fileMethod implements the path helpers of Ruby's File class, and the
// tests and read of a file inside the modules (see ModuleFiles).
func (in *interp) fileMethod(line int, name string, args []any) (any, bool, error) {
	strs := make([]string, 0, len(args))
	flat, ok := flatten(args, -1, nil)
	if !ok {
		return nil, true, in.errorf(line, "ArgumentError", "recursive array")
	}
	for _, a := range flat {
		s, ok := a.(*rstr)
		if !ok {
			return nil, true, in.errorf(line, "TypeError", "no implicit conversion of %s into String", className(a))
		}
		strs = append(strs, s.s)
	}
	switch name {
	case "exist?", "exists?", "file?", "directory?", "read":
		if len(strs) != 1 {
			return nil, false, nil
		}
		f, err := in.moduleFile(line, name, strs[0], name == "read")
		if err != nil {
			return nil, true, err
		}
		switch name {
		case "file?":
			return f.Exists && !f.Dir, true, nil
		case "directory?":
			return f.Exists && f.Dir, true, nil
		case "read":
			switch {
			case !f.Exists:
				return nil, true, in.errorf(line, "Errno::ENOENT", "No such file or directory @ rb_sysopen - %s", strs[0])
			case f.Dir:
				return nil, true, in.errorf(line, "Errno::EISDIR", "Is a directory @ io_fread - %s", strs[0])
			case len(f.Content) > in.maxString:
				return nil, true, in.stringTooLarge(line)
			}
			return newStr(string(f.Content)), true, nil
		}
		return f.Exists, true, nil
	case "join":
		var b strings.Builder
		for i, s := range strs {
			if i > 0 {
				cur := b.String()
				switch {
				case strings.HasSuffix(cur, "/"):
					s = strings.TrimLeft(s, "/")
				case !strings.HasPrefix(s, "/"):
					b.WriteByte('/')
				}
			}
			b.WriteString(s)
		}
		return newStr(b.String()), true, nil
	case "basename":
		if len(strs) == 1 || len(strs) == 2 {
			base := fileBasename(strs[0])
			if len(strs) == 2 && base != "/" {
				switch suffix := strs[1]; {
				case suffix == ".*":
					base = strings.TrimSuffix(base, fileExtname(base))
				case strings.HasSuffix(base, suffix) && base != suffix:
					base = strings.TrimSuffix(base, suffix)
				}
			}
			return newStr(base), true, nil
		}
	case "extname":
		if len(strs) == 1 {
			return newStr(fileExtname(fileBasename(strs[0]))), true, nil
		}
	case "expand_path":
		// Only what does not depend on the working directory or a home
		// directory: an absolute path, or a relative one against an
		// absolute directory.
		if len(strs) == 0 {
			return nil, false, nil
		}
		p := strs[0]
		if len(strs) == 2 && !strings.HasPrefix(p, "/") && !strings.HasPrefix(p, "~") {
			p = strs[1] + "/" + p
		}
		if len(strs) > 2 || !strings.HasPrefix(p, "/") || strings.HasPrefix(p, "//") {
			return nil, true, in.unsupported(line, "File.expand_path of %s", inspect(args))
		}
		return newStr(path.Clean(p)), true, nil
	case "dirname":
		if len(strs) == 1 {
			p := strings.TrimRight(strs[0], "/")
			k := strings.LastIndexByte(p, '/')
			switch {
			case k < 0:
				if strings.HasPrefix(strs[0], "/") {
					return newStr("/"), true, nil
				}
				return newStr("."), true, nil
			case strings.TrimRight(p[:k], "/") == "":
				return newStr("/"), true, nil
			}
			return newStr(strings.TrimRight(p[:k], "/")), true, nil
		}
	}
	return nil, false, nil
}

// digestMethod implements the class methods of Ruby's Digest::MD5, SHA1,
// SHA256 and SHA512 (modules' functions hash passwords with them): digest
// (raw bytes), hexdigest and base64digest of one String.
func (in *interp) digestMethod(line int, class, name string, args []any) (any, bool, error) {
	var h hash.Hash
	switch class {
	case "Digest::MD5":
		h = md5.New()
	case "Digest::SHA1":
		h = sha1.New()
	case "Digest::SHA256":
		h = sha256.New()
	case "Digest::SHA512":
		h = sha512.New()
	}
	switch name {
	case "digest", "hexdigest", "base64digest":
	default:
		return nil, false, nil
	}
	if len(args) != 1 {
		return nil, true, in.errorf(line, "ArgumentError", "wrong number of arguments (given %d, expected 1)", len(args))
	}
	s, err := in.strArg(line, args, 0)
	if err != nil {
		return nil, true, err
	}
	h.Write([]byte(s))
	sum := h.Sum(nil)
	switch name {
	case "hexdigest":
		return newStr(hex.EncodeToString(sum)), true, nil
	case "base64digest":
		return newStr(base64.StdEncoding.EncodeToString(sum)), true, nil
	}
	return newStr(string(sum)), true, nil
}

// intPow is n**m (m >= 0) by squaring, in O(log m) steps whatever m is;
// ok=false when the result overflows int64.
func intPow(n, m int64) (r int64, ok bool) {
	r = 1
	for m > 0 {
		if m&1 == 1 {
			if r, ok = mulInt(r, n); !ok {
				return 0, false
			}
		}
		if m >>= 1; m > 0 {
			if n, ok = mulInt(n, n); !ok {
				return 0, false
			}
		}
	}
	return r, true
}

// mulInt is a*b, ok=false on int64 overflow.
func mulInt(a, b int64) (int64, bool) {
	if a == 0 || b == 0 {
		return 0, true
	}
	c := a * b
	if c/b != a || (a == -1 && b == math.MinInt64) || (b == -1 && a == math.MinInt64) {
		return 0, false
	}
	return c, true
}

// fileBasename is File.basename of one argument.
func fileBasename(p string) string {
	t := strings.TrimRight(p, "/")
	if t == "" {
		if p == "" {
			return ""
		}
		return "/"
	}
	return t[strings.LastIndexByte(t, '/')+1:]
}

// fileExtname is File.extname of a base name: from its last dot, the
// dots it starts with not counting ("b." gives ".", ".bashrc" none).
func fileExtname(base string) string {
	rest := strings.TrimLeft(base, ".")
	i := strings.LastIndexByte(rest, '.')
	if i < 0 || base == "/" {
		return ""
	}
	return rest[i:]
}
