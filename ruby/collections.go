package ruby

import (
	"encoding/base64"
	"math"
	"strings"
)

// enumerator stands for a blockless call to an iterating method
// (`list.map`, `list.each_with_index`), so that `.with_index` and friends can
// follow.
type enumerator struct {
	items  []any  // the elements the method would yield
	method string // the method that was called without a block
	hash   bool   // items are the [key, value] pairs of a hash
}

// elements lists what each would yield, for Arrays, Hashes and Ranges.
func (in *interp) elements(line int, v any) ([]any, error) {
	switch v := v.(type) {
	case *rarray:
		return v.a, nil
	case *rhash:
		return toArray(v), nil
	case *rrange:
		return in.rangeElements(line, v)
	case *enumerator:
		return v.items, nil
	case nil:
		return nil, in.errorf(line, "NoMethodError", "undefined method `each' for nil:NilClass")
	}
	return nil, in.noMethod(line, v, "each")
}

func (in *interp) rangeElements(line int, r *rrange) ([]any, error) {
	switch lo := r.lo.(type) {
	case int64:
		hi, ok := r.hi.(int64)
		if !ok {
			if f, isF := r.hi.(float64); isF {
				hi = int64(f)
			} else {
				return nil, in.errorf(line, "TypeError", "can't iterate from Integer")
			}
		}
		if r.excl {
			hi--
		}
		if hi < lo {
			return nil, nil
		}
		// Unsigned, the difference cannot overflow; counting (not
		// comparing i with hi) ends at math.MaxInt64 too.
		n := uint64(hi) - uint64(lo)
		if n >= MaxArraySize {
			return nil, in.arrayTooLarge(line)
		}
		out := make([]any, 0, n+1)
		for i := range n + 1 {
			out = append(out, lo+int64(i))
		}
		return out, nil
	case *rstr:
		hi, ok := r.hi.(*rstr)
		if ok && len(lo.s) == 1 && len(hi.s) == 1 {
			end := hi.s[0]
			if r.excl {
				end--
			}
			var out []any
			for c := lo.s[0]; c <= end && c >= lo.s[0]; c++ {
				out = append(out, newStr(string(c)))
				if c == 255 {
					break
				}
			}
			return out, nil
		}
	}
	return nil, in.unsupported(line, "iterating over range %s", inspect(r))
}

// iterate runs each over v with a block (for loops use it too).
func (in *interp) iterate(line int, v any, blk *blockVal) (any, error) {
	items, err := in.elements(line, v)
	if err != nil {
		return nil, err
	}
	for _, it := range items {
		if _, err := in.yield(line, blk, it); err != nil {
			return nil, err
		}
	}
	return v, nil
}

// enumerable implements the Enumerable methods shared by Array, Hash, Range
// and enumerators. items are the yielded elements; isHash selects Hash
// results for select/reject and friends.
func (in *interp) enumerable(line int, recv any, items []any, isHash bool, name string, args []any, blk *blockVal) (any, bool, error) {
	call := func(it any) (any, error) { return in.yield(line, blk, it) }
	pairsToHash := func(pairs []any) *rhash {
		h := newHash()
		for _, p := range pairs {
			kv := p.(*rarray).a
			h.set(kv[0], kv[1])
		}
		return h
	}
	if blk == nil {
		switch name {
		case "each", "each_pair":
			if len(args) == 0 {
				// An Enumerator, so that .with_index and the like work.
				return &enumerator{items: items, method: name, hash: isHash}, true, nil
			}
		case "map", "collect", "select", "filter", "reject", "each_with_index", "flat_map", "collect_concat", "each_entry", "filter_map", "sort_by", "group_by", "min_by", "max_by", "find", "detect", "partition", "each_index", "find_index":
			if name == "find_index" && len(args) == 1 {
				break
			}
			if name == "each_with_index" {
				out := make([]any, len(items))
				for i, it := range items {
					out[i] = &rarray{a: []any{it, int64(i)}}
				}
				return &enumerator{items: out, method: "each", hash: false}, true, nil
			}
			return &enumerator{items: items, method: name, hash: isHash}, true, nil
		}
	}
	switch name {
	case "each", "each_pair", "each_entry":
		if len(args) != 0 || blk == nil {
			return nil, false, nil
		}
		for _, it := range items {
			if _, err := call(it); err != nil {
				return loopResult(err)
			}
		}
		return recv, true, nil
	case "each_with_index":
		for i, it := range items {
			if _, err := in.yield(line, blk, it, int64(i)); err != nil {
				return loopResult(err)
			}
		}
		return recv, true, nil
	case "each_with_object", "inject", "reduce", "sum", "count", "min", "max", "min_by", "max_by", "sort", "sort_by",
		"include?", "member?", "first", "take", "drop", "take_while", "drop_while", "zip", "each_slice", "each_cons",
		"to_a", "entries", "uniq", "group_by", "partition", "tally", "none?", "one?", "all?", "any?", "find", "detect",
		"find_all", "select", "filter", "reject", "map", "collect", "flat_map", "collect_concat", "filter_map", "find_index",
		"to_h", "to_set", "minmax", "sum_by", "chunk_while", "slice_when", "each_index", "reverse_each", "cycle", "with_index", "each_with_object_index":
	default:
		return nil, false, nil
	}
	switch name {
	case "map", "collect", "flat_map", "collect_concat", "filter_map":
		out := make([]any, 0, len(items))
		for _, it := range items {
			v, err := call(it)
			if err != nil {
				return loopResult(err)
			}
			switch {
			case name == "filter_map":
				if truthy(v) {
					out = append(out, v)
				}
			case name == "flat_map" || name == "collect_concat":
				if a, ok := v.(*rarray); ok {
					out = append(out, a.a...)
				} else {
					out = append(out, v)
				}
			default:
				out = append(out, v)
			}
		}
		return &rarray{a: out}, true, nil
	case "select", "filter", "find_all", "reject":
		var out []any
		for _, it := range items {
			var v any
			var err error
			if isHash && name != "find_all" {
				// Hash#select and #reject yield key and value as two
				// values, not one pair: |x| receives the key.
				kv := it.(*rarray).a
				v, err = in.yield(line, blk, kv[0], kv[1])
			} else {
				v, err = call(it)
			}
			if err != nil {
				return loopResult(err)
			}
			if truthy(v) == (name != "reject") {
				out = append(out, it)
			}
		}
		if isHash && name != "find_all" {
			return pairsToHash(out), true, nil
		}
		return &rarray{a: out}, true, nil
	case "find", "detect":
		for _, it := range items {
			v, err := call(it)
			if err != nil {
				return loopResult(err)
			}
			if truthy(v) {
				return it, true, nil
			}
		}
		return nil, true, nil
	case "find_index":
		for i, it := range items {
			var hit bool
			if len(args) == 1 {
				hit = rubyEqual(it, args[0])
			} else {
				v, err := call(it)
				if err != nil {
					return loopResult(err)
				}
				hit = truthy(v)
			}
			if hit {
				return int64(i), true, nil
			}
		}
		return nil, true, nil
	case "partition":
		var yes, no []any
		for _, it := range items {
			v, err := call(it)
			if err != nil {
				return loopResult(err)
			}
			if truthy(v) {
				yes = append(yes, it)
			} else {
				no = append(no, it)
			}
		}
		return &rarray{a: []any{&rarray{a: yes}, &rarray{a: no}}}, true, nil
	case "group_by":
		h := newHash()
		for _, it := range items {
			k, err := call(it)
			if err != nil {
				return loopResult(err)
			}
			cur, ok := h.get(k)
			if !ok {
				cur = &rarray{}
				h.set(k, cur)
			}
			cur.(*rarray).a = append(cur.(*rarray).a, it)
		}
		return h, true, nil
	case "tally":
		h := newHash()
		for _, it := range items {
			cur, _ := h.get(it)
			n, _ := cur.(int64)
			h.set(it, n+1)
		}
		return h, true, nil
	case "any?", "all?", "none?", "one?":
		count := 0
		for _, it := range items {
			var hit bool
			switch {
			case len(args) == 1:
				r, err := in.caseEq(line, args[0], it)
				if err != nil {
					return nil, true, err
				}
				hit = r
			case blk != nil:
				v, err := call(it)
				if err != nil {
					return loopResult(err)
				}
				hit = truthy(v)
			default:
				hit = truthy(it)
			}
			if hit {
				count++
				if name == "any?" {
					return true, true, nil
				}
				if name == "none?" {
					return false, true, nil
				}
			} else if name == "all?" {
				return false, true, nil
			}
		}
		switch name {
		case "any?":
			return false, true, nil
		case "one?":
			return count == 1, true, nil
		}
		return true, true, nil
	case "count":
		if len(args) == 0 && blk == nil {
			return int64(len(items)), true, nil
		}
		n := int64(0)
		for _, it := range items {
			var hit bool
			if len(args) == 1 {
				hit = rubyEqual(it, args[0])
			} else {
				v, err := call(it)
				if err != nil {
					return loopResult(err)
				}
				hit = truthy(v)
			}
			if hit {
				n++
			}
		}
		return n, true, nil
	case "include?", "member?":
		if len(args) != 1 {
			return nil, false, nil
		}
		for _, it := range items {
			if rubyEqual(it, args[0]) {
				return true, true, nil
			}
		}
		return false, true, nil
	case "inject", "reduce", "sum":
		var acc any
		start := 0
		var op string
		switch {
		case name == "sum":
			acc = int64(0)
			if len(args) == 1 {
				acc = args[0]
			}
		case len(args) == 2:
			acc, op = args[0], toS(args[1])
		case len(args) == 1 && blk == nil:
			op = toS(args[0])
			if len(items) == 0 {
				return nil, true, nil
			}
			acc, start = items[0], 1
		case len(args) == 1:
			acc = args[0]
		default:
			if len(items) == 0 {
				return nil, true, nil
			}
			acc, start = items[0], 1
		}
		for _, it := range items[start:] {
			var err error
			switch {
			case name == "sum":
				v := it
				if blk != nil {
					if v, err = call(it); err != nil {
						return loopResult(err)
					}
				}
				acc, err = in.callMethod(line, acc, "+", []any{v}, nil)
			case op != "":
				acc, err = in.callMethod(line, acc, op, []any{it}, nil)
			default:
				acc, err = in.yield(line, blk, acc, it)
			}
			if err != nil {
				return loopResult(err)
			}
		}
		return acc, true, nil
	case "each_with_object":
		if len(args) != 1 {
			return nil, false, nil
		}
		memo := args[0]
		for _, it := range items {
			if _, err := in.yield(line, blk, it, memo); err != nil {
				return loopResult(err)
			}
		}
		return memo, true, nil
	case "min", "max", "min_by", "max_by", "minmax":
		if len(args) != 0 {
			return nil, false, nil
		}
		if len(items) == 0 {
			if name == "minmax" {
				return &rarray{a: []any{nil, nil}}, true, nil
			}
			return nil, true, nil
		}
		keys := items
		if name == "min_by" || name == "max_by" {
			keys = make([]any, len(items))
			for i, it := range items {
				k, err := call(it)
				if err != nil {
					return loopResult(err)
				}
				keys[i] = k
			}
		}
		best, worst := 0, 0
		for i := 1; i < len(items); i++ {
			c, err := in.order(line, keys[i], keys[best], blk, name)
			if err != nil {
				return nil, true, err
			}
			if c < 0 {
				best = i
			}
			c, err = in.order(line, keys[i], keys[worst], blk, name)
			if err != nil {
				return nil, true, err
			}
			if c > 0 {
				worst = i
			}
		}
		switch name {
		case "min", "min_by":
			return items[best], true, nil
		case "minmax":
			return &rarray{a: []any{items[best], items[worst]}}, true, nil
		}
		return items[worst], true, nil
	case "sort":
		out := append([]any(nil), items...)
		err := sortValues(out, func(a, b any) (bool, error) {
			c, err := in.order(line, a, b, blk, "sort")
			return c < 0, err
		})
		return &rarray{a: out}, true, err
	case "sort_by":
		type keyed struct{ k, v any }
		ks := make([]any, len(items))
		for i, it := range items {
			k, err := call(it)
			if err != nil {
				return loopResult(err)
			}
			ks[i] = &keyed{k, it}
		}
		err := sortValues(ks, func(a, b any) (bool, error) {
			c, err := in.order(line, a.(*keyed).k, b.(*keyed).k, nil, "sort_by")
			return c < 0, err
		})
		out := make([]any, len(ks))
		for i, k := range ks {
			out[i] = k.(*keyed).v
		}
		return &rarray{a: out}, true, err
	case "first", "take":
		if len(args) == 0 && name == "first" {
			if len(items) == 0 {
				return nil, true, nil
			}
			return items[0], true, nil
		}
		if len(args) == 1 {
			n, ok := args[0].(int64)
			if !ok || n < 0 {
				return nil, true, in.errorf(line, "ArgumentError", "attempt to take negative size")
			}
			if int(n) > len(items) {
				n = int64(len(items))
			}
			return &rarray{a: append([]any(nil), items[:n]...)}, true, nil
		}
	case "drop":
		if len(args) == 1 {
			n, ok := args[0].(int64)
			if !ok || n < 0 {
				return nil, true, in.errorf(line, "ArgumentError", "attempt to drop negative size")
			}
			if int(n) > len(items) {
				n = int64(len(items))
			}
			return &rarray{a: append([]any(nil), items[n:]...)}, true, nil
		}
	case "take_while", "drop_while":
		i := 0
		for ; i < len(items); i++ {
			v, err := call(items[i])
			if err != nil {
				return loopResult(err)
			}
			if !truthy(v) {
				break
			}
		}
		if name == "take_while" {
			return &rarray{a: append([]any(nil), items[:i]...)}, true, nil
		}
		return &rarray{a: append([]any(nil), items[i:]...)}, true, nil
	case "each_slice", "each_cons":
		if len(args) != 1 {
			return nil, false, nil
		}
		n, ok := args[0].(int64)
		if !ok || n <= 0 {
			return nil, true, in.errorf(line, "ArgumentError", "invalid slice size")
		}
		var groups []any
		if name == "each_slice" {
			for i := 0; i < len(items); i += int(n) {
				end := i + int(n)
				if end > len(items) {
					end = len(items)
				}
				groups = append(groups, &rarray{a: append([]any(nil), items[i:end]...)})
			}
		} else {
			for i := 0; i+int(n) <= len(items); i++ {
				groups = append(groups, &rarray{a: append([]any(nil), items[i:i+int(n)]...)})
			}
		}
		if blk == nil {
			return &enumerator{items: groups, method: "each"}, true, nil
		}
		for _, g := range groups {
			if _, err := call(g); err != nil {
				return loopResult(err)
			}
		}
		return recv, true, nil
	case "zip":
		out := make([]any, len(items))
		others := make([][]any, len(args))
		for j, a := range args {
			els, err := in.elements(line, a)
			if err != nil {
				return nil, true, err
			}
			others[j] = els
		}
		for i, it := range items {
			row := []any{it}
			for _, o := range others {
				if i < len(o) {
					row = append(row, o[i])
				} else {
					row = append(row, nil)
				}
			}
			out[i] = &rarray{a: row}
		}
		return &rarray{a: out}, true, nil
	case "to_a", "entries":
		return &rarray{a: append([]any(nil), items...)}, true, nil
	case "uniq":
		return &rarray{a: in.uniq(line, items, blk)}, true, nil
	case "to_h":
		h := newHash()
		for _, it := range items {
			if blk != nil {
				v, err := call(it)
				if err != nil {
					return loopResult(err)
				}
				it = v
			}
			kv, ok := it.(*rarray)
			if !ok || len(kv.a) != 2 {
				return nil, true, in.errorf(line, "TypeError", "wrong element type %s (expected array)", className(it))
			}
			h.set(kv.a[0], kv.a[1])
		}
		return h, true, nil
	case "reverse_each":
		for i := len(items) - 1; i >= 0; i-- {
			if _, err := call(items[i]); err != nil {
				return loopResult(err)
			}
		}
		return recv, true, nil
	}
	return nil, false, nil
}

// order compares two values for sort, min and max, using the block if any.
func (in *interp) order(line int, a, b any, blk *blockVal, method string) (int, error) {
	if blk != nil && (method == "sort" || method == "min" || method == "max" || method == "minmax") {
		v, err := in.yield(line, blk, a, b)
		if err != nil {
			return 0, err
		}
		n, ok := v.(int64)
		if !ok {
			return 0, in.errorf(line, "ArgumentError", "comparison of %s with %s failed", className(a), className(b))
		}
		return int(n), nil
	}
	c, ok := compare(a, b)
	if !ok {
		what := inspect(b)
		switch b.(type) {
		case *rstr, *rarray, *rhash, nil, bool, symbol:
			what = className(b)
		}
		return 0, in.errorf(line, "ArgumentError", "comparison of %s with %s failed", className(a), what)
	}
	return c, nil
}

func (in *interp) uniq(line int, items []any, blk *blockVal) []any {
	seen := map[string]bool{}
	var out []any
	for _, it := range items {
		k := it
		if blk != nil {
			v, err := in.yield(line, blk, it)
			if err == nil {
				k = v
			}
		}
		hk := hashKey(k)
		if !seen[hk] {
			seen[hk] = true
			out = append(out, it)
		}
	}
	return out
}

// flatten is Array#flatten to a depth (-1: all the way); open lists the
// arrays being flattened, to detect one that contains itself.
func flatten(items []any, depth int, open []*rarray) ([]any, bool) {
	var out []any
	for _, it := range items {
		a, ok := it.(*rarray)
		if !ok || depth == 0 {
			out = append(out, it)
			continue
		}
		for _, o := range open {
			if o == a {
				return nil, false
			}
		}
		sub, ok := flatten(a.a, depth-1, append(open, a))
		if !ok || len(out)+len(sub) > MaxArraySize {
			return nil, false
		}
		out = append(out, sub...)
	}
	return out, true
}

// joinArray is Array#join: nested arrays join recursively. open lists the
// arrays being joined, to detect one that contains itself.
func (in *interp) joinArray(line int, items []any, sep string, open []*rarray) (string, error) {
	if len(open) > MaxNesting {
		return "", in.errorf(line, "ArgumentError", "recursive array join")
	}
	var b strings.Builder
	for i, it := range items {
		if i > 0 {
			b.WriteString(sep)
		}
		if a, ok := it.(*rarray); ok {
			for _, o := range open {
				if o == a {
					return "", in.errorf(line, "ArgumentError", "recursive array join")
				}
			}
			s, err := in.joinArray(line, a.a, sep, append(open, a))
			if err != nil {
				return "", err
			}
			b.WriteString(s)
			if b.Len() > in.maxString {
				return "", in.stringTooLarge(line)
			}
			continue
		}
		s, err := in.callToS(line, it)
		if err != nil {
			return "", err
		}
		b.WriteString(s)
	}
	return b.String(), nil
}

// arrayMethod dispatches a call of one of Array's methods through arrayMethods.
func (in *interp) arrayMethod(line int, a *rarray, name string, args []any, blk *blockVal) (any, bool, error) {
	if meth := in.methods.array[name]; meth != nil {
		return meth(in, line, a, name, args, blk)
	}
	return in.enumerable(line, a, a.a, false, name, args, blk)
}

// modify refuses to change a frozen Array or Hash with Ruby's FrozenError.
func (in *interp) modify(line int, recv any, frozen bool) error {
	if frozen {
		return in.frozenError(line, recv)
	}
	return nil
}

// arrayMethods are Array's methods, by name.
func arrayMethods() methodTable[*rarray] {
	t := methodTable[*rarray]{}
	t.def("length size", func(in *interp, line int, a *rarray, name string, args []any, blk *blockVal) (any, bool, error) {
		return int64(len(a.a)), true, nil
	})
	t.def("empty?", func(in *interp, line int, a *rarray, name string, args []any, blk *blockVal) (any, bool, error) {
		return len(a.a) == 0, true, nil
	})
	t.def("any?", func(in *interp, line int, a *rarray, name string, args []any, blk *blockVal) (any, bool, error) {
		if len(args) == 0 && blk == nil {
			for _, it := range a.a {
				if truthy(it) {
					return true, true, nil
				}
			}
			return false, true, nil
		}
		return in.enumerable(line, a, a.a, false, name, args, blk)
	})
	t.def("join", func(in *interp, line int, a *rarray, name string, args []any, blk *blockVal) (any, bool, error) {
		sep := ""
		if len(args) == 1 && args[0] != nil {
			s, err := in.strArg(line, args, 0)
			if err != nil {
				return nil, true, err
			}
			sep = s
		}
		s, err := in.joinArray(line, a.a, sep, []*rarray{a})
		return newStr(s), true, err
	})
	t.def("to_a to_ary entries", func(in *interp, line int, a *rarray, name string, args []any, blk *blockVal) (any, bool, error) {
		return a, true, nil
	})
	t.def("last", func(in *interp, line int, a *rarray, name string, args []any, blk *blockVal) (any, bool, error) {
		if len(args) == 0 {
			if len(a.a) == 0 {
				return nil, true, nil
			}
			return a.a[len(a.a)-1], true, nil
		}
		if n, ok := args[0].(int64); ok && n >= 0 {
			if int(n) > len(a.a) {
				n = int64(len(a.a))
			}
			return &rarray{a: append([]any(nil), a.a[len(a.a)-int(n):]...)}, true, nil
		}
		return in.enumerable(line, a, a.a, false, name, args, blk)
	})
	t.def("[] slice", func(in *interp, line int, a *rarray, name string, args []any, blk *blockVal) (any, bool, error) {
		return in.arrayIndex(line, a.a, args)
	})
	t.def("[]=", func(in *interp, line int, a *rarray, name string, args []any, blk *blockVal) (any, bool, error) {
		if err := in.modify(line, a, a.frozen); err != nil {
			return nil, true, err
		}
		if len(args) == 2 {
			i, ok := args[0].(int64)
			if !ok {
				return nil, false, nil
			}
			if i < 0 {
				i += int64(len(a.a))
				if i < 0 {
					return nil, true, in.errorf(line, "IndexError", "index %d too small for array", i-int64(len(a.a)))
				}
			}
			if i > MaxArraySize {
				return nil, true, in.arrayTooLarge(line)
			}
			for int64(len(a.a)) <= i {
				a.a = append(a.a, nil)
			}
			a.a[i] = args[1]
			return args[1], true, nil
		}
		return in.enumerable(line, a, a.a, false, name, args, blk)
	})
	t.def("at", func(in *interp, line int, a *rarray, name string, args []any, blk *blockVal) (any, bool, error) {
		if len(args) == 1 {
			return in.arrayIndex(line, a.a, args)
		}
		return in.enumerable(line, a, a.a, false, name, args, blk)
	})
	t.def("dig", func(in *interp, line int, a *rarray, name string, args []any, blk *blockVal) (any, bool, error) {
		return in.dig(line, a, args)
	})
	t.def("fetch", func(in *interp, line int, a *rarray, name string, args []any, blk *blockVal) (any, bool, error) {
		if len(args) >= 1 {
			i, ok := args[0].(int64)
			if !ok {
				return nil, false, nil
			}
			j := i
			if j < 0 {
				j += int64(len(a.a))
			}
			if j >= 0 && j < int64(len(a.a)) {
				return a.a[j], true, nil
			}
			if blk != nil {
				v, err := in.yield(line, blk, i)
				return v, true, err
			}
			if len(args) == 2 {
				return args[1], true, nil
			}
			return nil, true, in.errorf(line, "IndexError", "index %d outside of array bounds: %d...%d", i, -len(a.a), len(a.a))
		}
		return in.enumerable(line, a, a.a, false, name, args, blk)
	})
	t.def("index find_index", func(in *interp, line int, a *rarray, name string, args []any, blk *blockVal) (any, bool, error) {
		if len(args) == 1 || blk != nil {
			return in.enumerable(line, a, a.a, false, "find_index", args, blk)
		}
		return in.enumerable(line, a, a.a, false, name, args, blk)
	})
	t.def("values_at", func(in *interp, line int, a *rarray, name string, args []any, blk *blockVal) (any, bool, error) {
		var out []any
		for _, x := range args {
			v, _, err := in.arrayIndex(line, a.a, []any{x})
			if err != nil {
				return nil, true, err
			}
			out = append(out, v)
		}
		return &rarray{a: out}, true, nil
	})
	t.def("+", func(in *interp, line int, a *rarray, name string, args []any, blk *blockVal) (any, bool, error) {
		if len(args) == 1 {
			o, ok := args[0].(*rarray)
			if !ok {
				return nil, true, in.errorf(line, "TypeError", "no implicit conversion of %s into Array", className(args[0]))
			}
			if len(a.a)+len(o.a) > MaxArraySize {
				return nil, true, in.arrayTooLarge(line)
			}
			return &rarray{a: append(append([]any(nil), a.a...), o.a...)}, true, nil
		}
		return in.enumerable(line, a, a.a, false, name, args, blk)
	})
	t.def("- difference", func(in *interp, line int, a *rarray, name string, args []any, blk *blockVal) (any, bool, error) {
		if len(args) == 1 {
			o, ok := args[0].(*rarray)
			if !ok {
				return nil, true, in.errorf(line, "TypeError", "no implicit conversion of %s into Array", className(args[0]))
			}
			drop := map[string]bool{}
			for _, x := range o.a {
				drop[hashKey(x)] = true
			}
			var out []any
			for _, x := range a.a {
				if !drop[hashKey(x)] {
					out = append(out, x)
				}
			}
			return &rarray{a: out}, true, nil
		}
		return in.enumerable(line, a, a.a, false, name, args, blk)
	})
	t.def("& | intersection union", func(in *interp, line int, a *rarray, name string, args []any, blk *blockVal) (any, bool, error) {
		if len(args) == 1 {
			o, ok := args[0].(*rarray)
			if !ok {
				return nil, true, in.errorf(line, "TypeError", "no implicit conversion of %s into Array", className(args[0]))
			}
			if name == "|" || name == "union" {
				return &rarray{a: in.uniq(line, append(append([]any(nil), a.a...), o.a...), nil)}, true, nil
			}
			keep := map[string]bool{}
			for _, x := range o.a {
				keep[hashKey(x)] = true
			}
			var out []any
			for _, x := range in.uniq(line, a.a, nil) {
				if keep[hashKey(x)] {
					out = append(out, x)
				}
			}
			return &rarray{a: out}, true, nil
		}
		return in.enumerable(line, a, a.a, false, name, args, blk)
	})
	t.def("*", func(in *interp, line int, a *rarray, name string, args []any, blk *blockVal) (any, bool, error) {
		if len(args) == 1 {
			switch n := args[0].(type) {
			case int64:
				// Ruby's largest array is LONG_MAX/8 elements.
				size, err := in.repeatSize(line, int64(len(a.a)), n, math.MaxInt64/8)
				if err != nil {
					return nil, true, err
				}
				if size > MaxArraySize {
					return nil, true, in.arrayTooLarge(line)
				}
				out := make([]any, 0, size)
				for range size / max(int64(len(a.a)), 1) {
					out = append(out, a.a...)
				}
				return &rarray{a: out}, true, nil
			case *rstr:
				s, err := in.joinArray(line, a.a, n.s, []*rarray{a})
				return newStr(s), true, err
			}
		}
		return in.enumerable(line, a, a.a, false, name, args, blk)
	})
	t.def("<=>", func(in *interp, line int, a *rarray, name string, args []any, blk *blockVal) (any, bool, error) {
		if len(args) == 1 {
			c, ok := compare(a, args[0])
			if !ok {
				return nil, true, nil
			}
			return int64(c), true, nil
		}
		return in.enumerable(line, a, a.a, false, name, args, blk)
	})
	t.def("<< push append", func(in *interp, line int, a *rarray, name string, args []any, blk *blockVal) (any, bool, error) {
		if err := in.modify(line, a, a.frozen); err != nil {
			return nil, true, err
		}
		if name == "<<" && len(args) != 1 {
			return nil, false, nil
		}
		if len(a.a)+len(args) > MaxArraySize {
			return nil, true, in.arrayTooLarge(line)
		}
		a.a = append(a.a, args...)
		return a, true, nil
	})
	t.def("unshift prepend", func(in *interp, line int, a *rarray, name string, args []any, blk *blockVal) (any, bool, error) {
		if err := in.modify(line, a, a.frozen); err != nil {
			return nil, true, err
		}
		if len(a.a)+len(args) > MaxArraySize {
			return nil, true, in.arrayTooLarge(line)
		}
		a.a = append(append([]any(nil), args...), a.a...)
		return a, true, nil
	})
	t.def("concat", func(in *interp, line int, a *rarray, name string, args []any, blk *blockVal) (any, bool, error) {
		if err := in.modify(line, a, a.frozen); err != nil {
			return nil, true, err
		}
		for _, x := range args {
			o, ok := x.(*rarray)
			if !ok {
				return nil, true, in.errorf(line, "TypeError", "no implicit conversion of %s into Array", className(x))
			}
			if len(a.a)+len(o.a) > MaxArraySize {
				return nil, true, in.arrayTooLarge(line)
			}
			a.a = append(a.a, o.a...)
		}
		return a, true, nil
	})
	t.def("pop shift", func(in *interp, line int, a *rarray, name string, args []any, blk *blockVal) (any, bool, error) {
		if err := in.modify(line, a, a.frozen); err != nil {
			return nil, true, err
		}
		if len(args) != 0 {
			return nil, false, nil
		}
		if len(a.a) == 0 {
			return nil, true, nil
		}
		var v any
		if name == "pop" {
			v = a.a[len(a.a)-1]
			a.a = a.a[: len(a.a)-1 : len(a.a)-1]
		} else {
			v = a.a[0]
			a.a = append([]any(nil), a.a[1:]...)
		}
		return v, true, nil
	})
	t.def("insert", func(in *interp, line int, a *rarray, name string, args []any, blk *blockVal) (any, bool, error) {
		if err := in.modify(line, a, a.frozen); err != nil {
			return nil, true, err
		}
		if len(args) >= 1 {
			i, ok := args[0].(int64)
			if !ok || i < 0 || i > int64(len(a.a)) {
				return nil, true, in.unsupported(line, "Array#insert at %s", inspect(args[0]))
			}
			if len(a.a)+len(args) > MaxArraySize {
				return nil, true, in.arrayTooLarge(line)
			}
			out := append(append(append([]any(nil), a.a[:i]...), args[1:]...), a.a[i:]...)
			a.a = out
			return a, true, nil
		}
		return in.enumerable(line, a, a.a, false, name, args, blk)
	})
	t.def("delete", func(in *interp, line int, a *rarray, name string, args []any, blk *blockVal) (any, bool, error) {
		if err := in.modify(line, a, a.frozen); err != nil {
			return nil, true, err
		}
		if len(args) == 1 {
			var out []any
			var found any
			hit := false
			for _, x := range a.a {
				if rubyEqual(x, args[0]) {
					found, hit = x, true
					continue
				}
				out = append(out, x)
			}
			a.a = out
			if !hit {
				return nil, true, nil
			}
			return found, true, nil
		}
		return in.enumerable(line, a, a.a, false, name, args, blk)
	})
	t.def("delete_at", func(in *interp, line int, a *rarray, name string, args []any, blk *blockVal) (any, bool, error) {
		if err := in.modify(line, a, a.frozen); err != nil {
			return nil, true, err
		}
		if len(args) == 1 {
			i, ok := args[0].(int64)
			if !ok {
				return nil, false, nil
			}
			if i < 0 {
				i += int64(len(a.a))
			}
			if i < 0 || i >= int64(len(a.a)) {
				return nil, true, nil
			}
			v := a.a[i]
			a.a = append(append([]any(nil), a.a[:i]...), a.a[i+1:]...)
			return v, true, nil
		}
		return in.enumerable(line, a, a.a, false, name, args, blk)
	})
	t.def("clear", func(in *interp, line int, a *rarray, name string, args []any, blk *blockVal) (any, bool, error) {
		if err := in.modify(line, a, a.frozen); err != nil {
			return nil, true, err
		}
		a.a = nil
		return a, true, nil
	})
	t.def("replace", func(in *interp, line int, a *rarray, name string, args []any, blk *blockVal) (any, bool, error) {
		if err := in.modify(line, a, a.frozen); err != nil {
			return nil, true, err
		}
		if len(args) == 1 {
			if o, ok := args[0].(*rarray); ok {
				a.a = append([]any(nil), o.a...)
				return a, true, nil
			}
		}
		return in.enumerable(line, a, a.a, false, name, args, blk)
	})
	t.def("compact", func(in *interp, line int, a *rarray, name string, args []any, blk *blockVal) (any, bool, error) {
		var out []any
		for _, x := range a.a {
			if x != nil {
				out = append(out, x)
			}
		}
		return &rarray{a: out}, true, nil
	})
	t.def("flatten", func(in *interp, line int, a *rarray, name string, args []any, blk *blockVal) (any, bool, error) {
		depth := -1
		if len(args) == 1 {
			if d, ok := args[0].(int64); ok {
				depth = int(d)
			}
		}
		flat, ok := flatten(a.a, depth, []*rarray{a})
		if !ok {
			return nil, true, in.errorf(line, "ArgumentError", "tried to flatten recursive array (or one too large)")
		}
		return &rarray{a: flat}, true, nil
	})
	t.def("product", func(in *interp, line int, a *rarray, name string, args []any, blk *blockVal) (any, bool, error) {
		if blk != nil {
			return nil, false, nil // the block form is not in the subset
		}
		lists := [][]any{a.a}
		size := int64(len(a.a))
		for _, arg := range args {
			o, ok := arg.(*rarray)
			if !ok {
				return nil, true, in.errorf(line, "TypeError", "no implicit conversion of %s into Array", className(arg))
			}
			lists = append(lists, o.a)
			size *= int64(len(o.a))
			if size > MaxArraySize {
				return nil, true, in.arrayTooLarge(line)
			}
		}
		// Every combination, the last array varying fastest, as Ruby does.
		out := make([]any, 0, size)
		combo := make([]int, len(lists))
		for n := int64(0); n < size; n++ {
			row := make([]any, len(lists))
			for i, l := range lists {
				row[i] = l[combo[i]]
			}
			out = append(out, &rarray{a: row})
			for i := len(lists) - 1; i >= 0; i-- {
				combo[i]++
				if combo[i] < len(lists[i]) {
					break
				}
				combo[i] = 0
			}
		}
		return &rarray{a: out}, true, nil
	})
	t.def("reverse", func(in *interp, line int, a *rarray, name string, args []any, blk *blockVal) (any, bool, error) {
		out := make([]any, len(a.a))
		for i, x := range a.a {
			out[len(a.a)-1-i] = x
		}
		return &rarray{a: out}, true, nil
	})
	t.def("rotate", func(in *interp, line int, a *rarray, name string, args []any, blk *blockVal) (any, bool, error) {
		if len(a.a) == 0 {
			return &rarray{}, true, nil
		}
		n := int64(1)
		if len(args) == 1 {
			if k, ok := args[0].(int64); ok {
				n = k
			}
		}
		k := int(floorMod(n, int64(len(a.a))))
		return &rarray{a: append(append([]any(nil), a.a[k:]...), a.a[:k]...)}, true, nil
	})
	t.def("transpose", func(in *interp, line int, a *rarray, name string, args []any, blk *blockVal) (any, bool, error) {
		if len(a.a) == 0 {
			return &rarray{}, true, nil
		}
		var rows [][]any
		for _, r := range a.a {
			ra, ok := r.(*rarray)
			if !ok {
				return nil, true, in.errorf(line, "TypeError", "no implicit conversion of %s into Array", className(r))
			}
			if len(rows) > 0 && len(ra.a) != len(rows[0]) {
				return nil, true, in.errorf(line, "IndexError", "element size differs (%d should be %d)", len(ra.a), len(rows[0]))
			}
			rows = append(rows, ra.a)
		}
		out := make([]any, len(rows[0]))
		for j := range rows[0] {
			col := make([]any, len(rows))
			for i := range rows {
				col[i] = rows[i][j]
			}
			out[j] = &rarray{a: col}
		}
		return &rarray{a: out}, true, nil
	})
	t.def("each_index", func(in *interp, line int, a *rarray, name string, args []any, blk *blockVal) (any, bool, error) {
		if blk != nil {
			for i := range a.a {
				if _, err := in.yield(line, blk, int64(i)); err != nil {
					return loopResult(err)
				}
			}
			return a, true, nil
		}
		return in.enumerable(line, a, a.a, false, name, args, blk)
	})
	t.def("hash", func(in *interp, line int, a *rarray, name string, args []any, blk *blockVal) (any, bool, error) {
		return nil, true, in.unsupported(line, "Array#hash")
	})
	t.def("sort! map! collect! select! reject! uniq! compact! flatten! reverse! sort_by! keep_if delete_if filter!", func(in *interp, line int, a *rarray, name string, args []any, blk *blockVal) (any, bool, error) {
		if err := in.modify(line, a, a.frozen); err != nil {
			return nil, true, err
		}
		base := strings.TrimSuffix(name, "!")
		switch name {
		case "keep_if":
			base = "select"
		case "delete_if":
			base = "reject"
		}
		v, ok, err := in.arrayMethod(line, &rarray{a: a.a}, base, args, blk)
		if !ok || err != nil {
			return v, ok, err
		}
		na, isArr := v.(*rarray)
		if !isArr {
			return v, true, nil
		}
		changed := len(na.a) != len(a.a)
		a.a = na.a
		if !changed && (name == "uniq!" || name == "compact!" || name == "flatten!" || name == "select!" || name == "reject!" || name == "filter!") {
			return nil, true, nil
		}
		return a, true, nil
	})
	t.def("pack sample shuffle", func(in *interp, line int, a *rarray, name string, args []any, blk *blockVal) (any, bool, error) {
		// pack('m') and pack('m0') of one String: Base64, in lines of 60
		// characters or strict (openldap's SMD5 scheme).
		if name == "pack" && len(args) == 1 && len(a.a) == 1 {
			f, fok := args[0].(*rstr)
			s, sok := a.a[0].(*rstr)
			if fok && sok && (f.s == "m" || f.s == "m0") {
				if f.s == "m0" {
					return newStr(base64.StdEncoding.EncodeToString([]byte(s.s))), true, nil
				}
				return newStr(base64Lines(s.s)), true, nil
			}
		}
		return nil, true, in.unsupported(line, "Array#%s", name)
	})
	return t
}

// arrayIndex implements Array#[].
func (in *interp) arrayIndex(line int, a []any, args []any) (any, bool, error) {
	n := len(a)
	switch len(args) {
	case 1:
		switch x := args[0].(type) {
		case int64:
			i := int(x)
			if i < 0 {
				i += n
			}
			if i < 0 || i >= n {
				return nil, true, nil
			}
			return a[i], true, nil
		case float64:
			return in.arrayIndex(line, a, []any{int64(x)})
		case *rrange:
			start, length, ok := rangeBounds(x, n)
			if !ok {
				return nil, true, nil
			}
			return &rarray{a: append([]any(nil), a[start:start+length]...)}, true, nil
		}
		return nil, true, in.errorf(line, "TypeError", "no implicit conversion of %s into Integer", className(args[0]))
	case 2:
		s, ok1 := args[0].(int64)
		l, ok2 := args[1].(int64)
		if ok1 && ok2 {
			start := int(s)
			if start < 0 {
				start += n
			}
			if start < 0 || start > n || l < 0 {
				return nil, true, nil
			}
			end := start + int(l)
			if end > n {
				end = n
			}
			return &rarray{a: append([]any(nil), a[start:end]...)}, true, nil
		}
	}
	return nil, false, nil
}

func (in *interp) dig(line int, v any, keys []any) (any, bool, error) {
	for _, k := range keys {
		switch c := v.(type) {
		case nil:
			return nil, true, nil
		case *rarray:
			r, _, err := in.arrayIndex(line, c.a, []any{k})
			if err != nil {
				return nil, true, err
			}
			v = r
		case *rhash:
			v, _ = c.get(k)
		default:
			return nil, true, in.errorf(line, "TypeError", "%s does not have #dig method", className(v))
		}
	}
	return v, true, nil
}

// hashMethod dispatches a call of one of Hash's methods through hashMethods.
func (in *interp) hashMethod(line int, h *rhash, name string, args []any, blk *blockVal) (any, bool, error) {
	if meth := in.methods.hash[name]; meth != nil {
		return meth(in, line, h, name, args, blk)
	}
	return in.enumerable(line, h, toArray(h), true, name, args, blk)
}

// hashMethods are Hash's methods, by name.
func hashMethods() methodTable[*rhash] {
	t := methodTable[*rhash]{}
	t.def("[]", func(in *interp, line int, h *rhash, name string, args []any, blk *blockVal) (any, bool, error) {
		if len(args) == 1 {
			v, ok := h.get(args[0])
			if !ok && h.dfltProc != nil {
				v, err := in.yield(line, h.dfltProc, h, args[0])
				return v, true, err
			}
			if !ok {
				v = h.dflt
			}
			return v, true, nil
		}
		return in.enumerable(line, h, toArray(h), true, name, args, blk)
	})
	t.def("[]= store", func(in *interp, line int, h *rhash, name string, args []any, blk *blockVal) (any, bool, error) {
		if err := in.modify(line, h, h.frozen); err != nil {
			return nil, true, err
		}
		if len(args) == 2 {
			h.set(args[0], args[1])
			return args[1], true, nil
		}
		return in.enumerable(line, h, toArray(h), true, name, args, blk)
	})
	t.def("fetch", func(in *interp, line int, h *rhash, name string, args []any, blk *blockVal) (any, bool, error) {
		if len(args) >= 1 {
			if v, ok := h.get(args[0]); ok {
				return v, true, nil
			}
			if blk != nil {
				v, err := in.yield(line, blk, args[0])
				return v, true, err
			}
			if len(args) == 2 {
				return args[1], true, nil
			}
			return nil, true, in.errorf(line, "KeyError", "key not found: %s", inspect(args[0]))
		}
		return in.enumerable(line, h, toArray(h), true, name, args, blk)
	})
	t.def("dig", func(in *interp, line int, h *rhash, name string, args []any, blk *blockVal) (any, bool, error) {
		return in.dig(line, h, args)
	})
	t.def("key? has_key? include? member?", func(in *interp, line int, h *rhash, name string, args []any, blk *blockVal) (any, bool, error) {
		if len(args) == 1 {
			_, ok := h.get(args[0])
			return ok, true, nil
		}
		return in.enumerable(line, h, toArray(h), true, name, args, blk)
	})
	t.def("value? has_value?", func(in *interp, line int, h *rhash, name string, args []any, blk *blockVal) (any, bool, error) {
		if len(args) == 1 {
			for _, v := range h.vals {
				if rubyEqual(v, args[0]) {
					return true, true, nil
				}
			}
			return false, true, nil
		}
		return in.enumerable(line, h, toArray(h), true, name, args, blk)
	})
	t.def("key", func(in *interp, line int, h *rhash, name string, args []any, blk *blockVal) (any, bool, error) {
		if len(args) == 1 {
			for i, v := range h.vals {
				if rubyEqual(v, args[0]) {
					return h.keys[i], true, nil
				}
			}
			return nil, true, nil
		}
		return in.enumerable(line, h, toArray(h), true, name, args, blk)
	})
	t.def("keys", func(in *interp, line int, h *rhash, name string, args []any, blk *blockVal) (any, bool, error) {
		return &rarray{a: append([]any(nil), h.keys...)}, true, nil
	})
	t.def("values", func(in *interp, line int, h *rhash, name string, args []any, blk *blockVal) (any, bool, error) {
		return &rarray{a: append([]any(nil), h.vals...)}, true, nil
	})
	t.def("values_at", func(in *interp, line int, h *rhash, name string, args []any, blk *blockVal) (any, bool, error) {
		var out []any
		for _, k := range args {
			v, _ := h.get(k)
			out = append(out, v)
		}
		return &rarray{a: out}, true, nil
	})
	t.def("clear", func(in *interp, line int, h *rhash, name string, args []any, blk *blockVal) (any, bool, error) {
		if err := in.modify(line, h, h.frozen); err != nil {
			return nil, true, err
		}
		h.keys, h.vals, h.index = nil, nil, map[string]int{}
		return h, true, nil
	})
	t.def("length size", func(in *interp, line int, h *rhash, name string, args []any, blk *blockVal) (any, bool, error) {
		return int64(len(h.keys)), true, nil
	})
	t.def("count", func(in *interp, line int, h *rhash, name string, args []any, blk *blockVal) (any, bool, error) {
		if len(args) == 0 && blk == nil {
			return int64(len(h.keys)), true, nil
		}
		return in.enumerable(line, h, toArray(h), true, name, args, blk)
	})
	t.def("empty?", func(in *interp, line int, h *rhash, name string, args []any, blk *blockVal) (any, bool, error) {
		return len(h.keys) == 0, true, nil
	})
	t.def("to_h to_hash", func(in *interp, line int, h *rhash, name string, args []any, blk *blockVal) (any, bool, error) {
		if blk == nil {
			return h, true, nil
		}
		return in.enumerable(line, h, toArray(h), true, name, args, blk)
	})
	t.def("merge update merge!", func(in *interp, line int, h *rhash, name string, args []any, blk *blockVal) (any, bool, error) {
		out := h
		if name == "merge" {
			out = h.copy()
		} else if err := in.modify(line, h, h.frozen); err != nil {
			return nil, true, err
		}
		for _, a := range args {
			o, ok := a.(*rhash)
			if !ok {
				return nil, true, in.errorf(line, "TypeError", "no implicit conversion of %s into Hash", className(a))
			}
			for i, k := range o.keys {
				v := o.vals[i]
				if old, exists := out.get(k); exists && blk != nil {
					r, err := in.yield(line, blk, k, old, v)
					if err != nil {
						return nil, true, err
					}
					v = r
				}
				out.set(k, v)
			}
		}
		return out, true, nil
	})
	t.def("delete", func(in *interp, line int, h *rhash, name string, args []any, blk *blockVal) (any, bool, error) {
		if err := in.modify(line, h, h.frozen); err != nil {
			return nil, true, err
		}
		if len(args) == 1 {
			v, _ := h.delete(args[0])
			return v, true, nil
		}
		return in.enumerable(line, h, toArray(h), true, name, args, blk)
	})
	t.def("shift", func(in *interp, line int, h *rhash, name string, args []any, blk *blockVal) (any, bool, error) {
		if len(args) != 0 {
			return nil, false, nil
		}
		if err := in.modify(line, h, h.frozen); err != nil {
			return nil, true, err
		}
		if len(h.keys) == 0 {
			// Ruby before 3.2 answers the default of an empty Hash.
			if h.dfltProc != nil {
				return nil, true, in.unsupported(line, "Hash#shift of an empty Hash with a default block")
			}
			return h.dflt, true, nil
		}
		k, v := h.keys[0], h.vals[0]
		h.delete(k)
		return &rarray{a: []any{k, v}}, true, nil
	})
	t.def("invert", func(in *interp, line int, h *rhash, name string, args []any, blk *blockVal) (any, bool, error) {
		out := newHash()
		for i, k := range h.keys {
			out.set(h.vals[i], k)
		}
		return out, true, nil
	})
	t.def("each_key each_value", func(in *interp, line int, h *rhash, name string, args []any, blk *blockVal) (any, bool, error) {
		if blk == nil {
			return nil, false, nil
		}
		list := h.keys
		if name == "each_value" {
			list = h.vals
		}
		for _, x := range append([]any(nil), list...) {
			if _, err := in.yield(line, blk, x); err != nil {
				return loopResult(err)
			}
		}
		return h, true, nil
	})
	t.def("transform_values transform_keys", func(in *interp, line int, h *rhash, name string, args []any, blk *blockVal) (any, bool, error) {
		if blk == nil {
			return nil, false, nil
		}
		out := newHash()
		for i, k := range h.keys {
			v := h.vals[i]
			var err error
			if name == "transform_values" {
				v, err = in.yield(line, blk, v)
			} else {
				k, err = in.yield(line, blk, k)
			}
			if err != nil {
				return loopResult(err)
			}
			out.set(k, v)
		}
		return out, true, nil
	})
	t.def("compact", func(in *interp, line int, h *rhash, name string, args []any, blk *blockVal) (any, bool, error) {
		out := newHash()
		for i, k := range h.keys {
			if h.vals[i] != nil {
				out.set(k, h.vals[i])
			}
		}
		return out, true, nil
	})
	t.def("slice", func(in *interp, line int, h *rhash, name string, args []any, blk *blockVal) (any, bool, error) {
		out := newHash()
		for _, k := range args {
			if v, ok := h.get(k); ok {
				out.set(k, v)
			}
		}
		return out, true, nil
	})
	t.def("except", func(in *interp, line int, h *rhash, name string, args []any, blk *blockVal) (any, bool, error) {
		out := h.copy()
		for _, k := range args {
			out.delete(k)
		}
		return out, true, nil
	})
	t.def("sort", func(in *interp, line int, h *rhash, name string, args []any, blk *blockVal) (any, bool, error) {
		if blk == nil && len(args) == 0 {
			return in.enumerable(line, h, toArray(h), true, "sort", nil, nil)
		}
		return in.enumerable(line, h, toArray(h), true, name, args, blk)
	})
	t.def("select! reject! delete_if keep_if filter!", func(in *interp, line int, h *rhash, name string, args []any, blk *blockVal) (any, bool, error) {
		if err := in.modify(line, h, h.frozen); err != nil {
			return nil, true, err
		}
		base := strings.TrimSuffix(name, "!")
		switch name {
		case "delete_if":
			base = "reject"
		case "keep_if":
			base = "select"
		}
		v, ok, err := in.enumerable(line, h, toArray(h), true, base, args, blk)
		if !ok || err != nil {
			return v, ok, err
		}
		nh := v.(*rhash)
		changed := len(nh.keys) != len(h.keys)
		*h = *nh
		if !changed && strings.HasSuffix(name, "!") {
			return nil, true, nil
		}
		return h, true, nil
	})
	t.def("any?", func(in *interp, line int, h *rhash, name string, args []any, blk *blockVal) (any, bool, error) {
		if len(args) == 0 && blk == nil {
			return len(h.keys) > 0, true, nil
		}
		return in.enumerable(line, h, toArray(h), true, name, args, blk)
	})
	return t
}

// rangeMethod dispatches a call of one of Range's methods through rngMethods.
func (in *interp) rangeMethod(line int, r *rrange, name string, args []any, blk *blockVal) (any, bool, error) {
	if meth := in.methods.rng[name]; meth != nil {
		return meth(in, line, r, name, args, blk)
	}
	items, err := in.rangeElements(line, r)
	if err != nil {
		return nil, true, err
	}
	return in.enumerable(line, r, items, false, name, args, blk)
}

// rngMethods are Range's methods, by name.
func rngMethods() methodTable[*rrange] {
	t := methodTable[*rrange]{}
	t.def("first begin min", func(in *interp, line int, r *rrange, name string, args []any, blk *blockVal) (any, bool, error) {
		if len(args) == 0 && (name != "min" || blk == nil) {
			if name == "min" {
				if c, ok := compare(r.lo, r.hi); ok && (c > 0 || c == 0 && r.excl) {
					return nil, true, nil
				}
			}
			return r.lo, true, nil
		}
		items, err := in.rangeElements(line, r)
		if err != nil {
			return nil, true, err
		}
		return in.enumerable(line, r, items, false, name, args, blk)
	})
	t.def("last end max", func(in *interp, line int, r *rrange, name string, args []any, blk *blockVal) (any, bool, error) {
		if len(args) == 0 && (name != "max" || blk == nil) {
			if name == "max" && r.excl {
				if h, ok := r.hi.(int64); ok {
					return h - 1, true, nil
				}
			}
			return r.hi, true, nil
		}
		items, err := in.rangeElements(line, r)
		if err != nil {
			return nil, true, err
		}
		return in.enumerable(line, r, items, false, name, args, blk)
	})
	t.def("include? member? cover? ===", func(in *interp, line int, r *rrange, name string, args []any, blk *blockVal) (any, bool, error) {
		if len(args) == 1 {
			return rangeIncludes(r, args[0]), true, nil
		}
		items, err := in.rangeElements(line, r)
		if err != nil {
			return nil, true, err
		}
		return in.enumerable(line, r, items, false, name, args, blk)
	})
	t.def("exclude_end?", func(in *interp, line int, r *rrange, name string, args []any, blk *blockVal) (any, bool, error) {
		return r.excl, true, nil
	})
	t.def("size count", func(in *interp, line int, r *rrange, name string, args []any, blk *blockVal) (any, bool, error) {
		if len(args) == 0 && blk == nil {
			items, err := in.rangeElements(line, r)
			if err != nil {
				return nil, true, err
			}
			return int64(len(items)), true, nil
		}
		items, err := in.rangeElements(line, r)
		if err != nil {
			return nil, true, err
		}
		return in.enumerable(line, r, items, false, name, args, blk)
	})
	t.def("step", func(in *interp, line int, r *rrange, name string, args []any, blk *blockVal) (any, bool, error) {
		if len(args) == 1 && blk == nil {
			st, ok := args[0].(int64)
			lo, ok2 := r.lo.(int64)
			hi, ok3 := r.hi.(int64)
			if ok && ok2 && ok3 && st > 0 {
				n := stepCount(lo, hi, st, r.excl)
				if n > MaxArraySize {
					return nil, true, in.arrayTooLarge(line)
				}
				out := make([]any, 0, n)
				for i := range n {
					out = append(out, lo+int64(i*uint64(st)))
				}
				return &enumerator{items: out, method: "each"}, true, nil
			}
		}
		if len(args) == 1 && blk != nil {
			st, ok := args[0].(int64)
			lo, ok2 := r.lo.(int64)
			hi, ok3 := r.hi.(int64)
			if ok && ok2 && ok3 && st > 0 {
				for k := range stepCount(lo, hi, st, r.excl) {
					if _, err := in.yield(line, blk, lo+int64(k*uint64(st))); err != nil {
						return loopResult(err)
					}
				}
				return r, true, nil
			}
		}
		items, err := in.rangeElements(line, r)
		if err != nil {
			return nil, true, err
		}
		return in.enumerable(line, r, items, false, name, args, blk)
	})
	return t
}

// enumeratorMethod dispatches a call of one of Enumerator's methods through enumeratorMethods.
func (in *interp) enumeratorMethod(line int, e *enumerator, name string, args []any, blk *blockVal) (any, bool, error) {
	if meth := in.methods.enumerator[name]; meth != nil {
		return meth(in, line, e, name, args, blk)
	}
	return in.enumerable(line, e, e.items, e.hash, name, args, blk)
}

// enumeratorMethods are Enumerator's methods, by name.
func enumeratorMethods() methodTable[*enumerator] {
	t := methodTable[*enumerator]{}
	t.def("with_index each_with_index", func(in *interp, line int, e *enumerator, name string, args []any, blk *blockVal) (any, bool, error) {
		offset := int64(0)
		if name == "with_index" && len(args) == 1 {
			o, ok := args[0].(int64)
			if !ok {
				return nil, false, nil
			}
			offset = o
		}
		if blk == nil {
			if e.method != "each" && e.method != "each_pair" {
				return nil, false, nil
			}
			// each.with_index: an Enumerator of [item, index] pairs.
			out := make([]any, len(e.items))
			for k, it := range e.items {
				out[k] = &rarray{a: []any{it, offset + int64(k)}}
			}
			return &enumerator{items: out, method: "each"}, true, nil
		}
		// Run the original method with a block that adds the index.
		i := offset
		idxBlk := &indexBlock{in: in, inner: blk, next: &i}
		return in.enumerable(line, e, e.items, e.hash, e.method, nil, idxBlk.block())
	})
	t.def("with_object", func(in *interp, line int, e *enumerator, name string, args []any, blk *blockVal) (any, bool, error) {
		return nil, false, nil
	})
	t.def("next peek rewind size", func(in *interp, line int, e *enumerator, name string, args []any, blk *blockVal) (any, bool, error) {
		if name == "size" {
			return int64(len(e.items)), true, nil
		}
		return nil, true, in.unsupported(line, "external enumeration")
	})
	return t
}

// indexBlock adapts a |x, i| block to be called with x alone, supplying i.
type indexBlock struct {
	in    *interp
	inner *blockVal
	next  *int64
}

func (b *indexBlock) block() *blockVal {
	return &blockVal{params: []param{{name: "__item"}}, body: &nIndexCall{ib: b}, env: &env{vars: map[string]any{}}}
}

// nIndexCall is a synthetic node that calls the inner block with the item
// and the running index.
type nIndexCall struct {
	at
	ib *indexBlock
}

// stepCount is how many values lo, lo+st, ... (st > 0) a range up to hi
// holds, computed without overflow, so that the loops over it count
// rather than compare a value that could wrap past math.MaxInt64.
func stepCount(lo, hi, st int64, excl bool) uint64 {
	if hi < lo || excl && hi == lo {
		return 0
	}
	d := uint64(hi) - uint64(lo)
	n := d/uint64(st) + 1
	if excl && d%uint64(st) == 0 {
		n--
	}
	return n
}
