package eval

import (
	"unicode/utf8"

	"github.com/marionette-dev/marionette/diag"
	"github.com/marionette-dev/marionette/syntax"
	"github.com/marionette-dev/marionette/value"
)

func (ev *Evaluator) access(x *syntax.AccessExpr, sc *Scope) (value.Value, error) {
	if v, ok := x.Operand.(*syntax.Variable); ok && (v.Name == "facts" || v.Name == "::facts") {
		if out, ok, err := ev.factsAccess(x, v, sc); ok {
			return out, err
		}
	}
	target, err := ev.Eval(x.Operand, sc)
	if err != nil {
		return nil, err
	}
	if h, ok := target.(*value.Hash); ok && len(x.Keys) == 1 && !isSplat(x.Keys[0]) {
		// $hash[key], the most common access, needs no key list, and a
		// literal key need not be boxed as a value.
		if lit, ok := x.Keys[0].(*syntax.StringLit); ok {
			if v, ok := h.GetString(lit.Value); ok {
				return v, nil
			}
			return value.Undef, nil
		}
		k, err := ev.Eval(x.Keys[0], sc)
		if err != nil {
			return nil, err
		}
		if v, ok := h.Get(k); ok {
			return v, nil
		}
		return value.Undef, nil
	}
	if rt, ok := target.(*value.ResourceType); ok && rt.Type != "" && rt.Title == "" && len(x.Keys) == 1 && !isSplat(x.Keys[0]) {
		// Type['title'], a reference: no key list, no list of references.
		k, err := ev.Eval(x.Keys[0], sc)
		if err != nil {
			return nil, err
		}
		if title, ok := k.(value.String); ok {
			return &value.ResourceType{Type: rt.Type, Title: string(title)}, nil
		}
		return ev.resourceAccess(sc, x, rt, []value.Value{k})
	}
	keys, err := ev.evalList(x.Keys, sc)
	if err != nil {
		return nil, err
	}
	switch t := target.(type) {
	case value.String:
		return ev.indexSequence(sc, x, t, keys)
	case value.Array:
		return ev.indexSequence(sc, x, t, keys)
	case *value.Hash:
		if len(keys) == 1 {
			v, ok := t.Get(keys[0])
			if !ok {
				return value.Undef, nil
			}
			return v, nil
		}
		out := make(value.Array, 0, len(keys))
		for _, k := range keys {
			if v, ok := t.Get(k); ok {
				out = append(out, v)
			}
		}
		return out, nil
	case *value.ResourceType:
		return ev.resourceAccess(sc, x, t, keys)
	case *value.ClassType:
		if t.Name != "" {
			return nil, errorAt(sc, x, "Cannot parameterize an already parameterized Class")
		}
		return classAccess(sc, x, keys)
	case value.Type:
		pt, err := value.Parameterize(t, keys)
		if err != nil {
			return nil, errorAt(sc, x, "%v", err)
		}
		return pt, nil
	case nil:
		return value.Undef, nil
	}
	if value.IsUndef(target) {
		return nil, IssueAt(sc, x, diag.OperatorNotApplicable, diag.Args{"operator": "[]"}, "Operator '[]' is not applicable to an Undef Value.")
	}
	return nil, IssueAt(sc, x, diag.OperatorNotApplicable, diag.Args{"operator": "[]"}, "Operator '[]' is not applicable to %s", describe(target))
}

// factsAccess is $facts[k...] in a compile that records the facts it
// reads: the keys are recorded, not the whole hash (ok is false when
// $facts is not recorded there, or a key is splatted).
func (ev *Evaluator) factsAccess(x *syntax.AccessExpr, v *syntax.Variable, sc *Scope) (out value.Value, ok bool, err error) {
	from := sc
	if v.Name == "::facts" {
		from = sc.Top()
	}
	h, rec := from.FactsAt()
	if h == nil {
		return nil, false, nil
	}
	for _, k := range x.Keys {
		if isSplat(k) {
			return nil, false, nil
		}
	}
	keys, err := ev.evalList(x.Keys, sc)
	if err != nil {
		return nil, true, err
	}
	for _, k := range keys {
		if s, isString := k.(value.String); isString {
			rec.Fact(string(s))
		} else {
			rec.AllFacts()
		}
	}
	if len(keys) == 1 {
		if v, found := h.Get(keys[0]); found {
			return v, true, nil
		}
		return value.Undef, true, nil
	}
	all := make(value.Array, 0, len(keys))
	for _, k := range keys {
		if v, found := h.Get(k); found {
			all = append(all, v)
		}
	}
	return all, true, nil
}

// indexSequence indexes or slices a String or an Array: [i], [start, count],
// negative indices counting from the end.
func (ev *Evaluator) indexSequence(sc *Scope, x *syntax.AccessExpr, seq value.Value, keys []value.Value) (value.Value, error) {
	var n int
	str, isStr := seq.(value.String)
	arr, _ := seq.(value.Array)
	if isStr {
		n = utf8.RuneCountInString(string(str))
	} else {
		n = len(arr)
	}
	if len(keys) < 1 || len(keys) > 2 {
		return nil, errorAt(sc, x, "%s supports [] with one or two arguments. Got %d", describe(seq), len(keys))
	}
	idx, ok := keys[0].(value.Integer)
	if !ok {
		return nil, errorAt(sc, x, "%s[] cannot use %s where Integer is expected", describe(seq), describe(keys[0]))
	}
	start := int(idx)
	if start < 0 {
		start += n
	}
	if len(keys) == 1 {
		if start < 0 || start >= n {
			return value.Undef, nil
		}
		if isStr {
			r := []rune(string(str))
			return value.String(string(r[start])), nil
		}
		return arr[start], nil
	}
	cnt, ok := keys[1].(value.Integer)
	if !ok {
		return nil, errorAt(sc, x, "%s[] cannot use %s where Integer is expected", describe(seq), describe(keys[1]))
	}
	count := int(cnt)
	if start < 0 {
		// Ruby clips a negative start that reaches before the beginning.
		count += start
		start = 0
	}
	end := start + count
	if count < 0 {
		end = n + count + 1 // a negative count is an end index from the end
	}
	if start > n {
		start = n
	}
	if end > n {
		end = n
	}
	if end < start {
		end = start
	}
	if isStr {
		r := []rune(string(str))
		return value.String(string(r[start:end])), nil
	}
	out := make(value.Array, end-start)
	copy(out, arr[start:end])
	return out, nil
}

// resourceAccess builds references: File['a'], File['a', 'b'], Resource[file, 'a'].
func (ev *Evaluator) resourceAccess(sc *Scope, x *syntax.AccessExpr, t *value.ResourceType, keys []value.Value) (value.Value, error) {
	if t.Title != "" {
		return nil, errorAt(sc, x, "Cannot parameterize an already parameterized resource reference %s", value.TypeString(t))
	}
	typeName := t.Type
	if typeName == "" { // Resource[type, titles...]
		if len(keys) == 0 {
			return nil, errorAt(sc, x, "Resource[] requires at least one argument")
		}
		switch k := keys[0].(type) {
		case value.String:
			typeName = value.CapitalizeName(string(k))
		case *value.ResourceType:
			typeName = k.Type
		default:
			return nil, errorAt(sc, x, "Resource[] argument must be a resource type name, got %s", describe(keys[0]))
		}
		keys = keys[1:]
		if len(keys) == 0 {
			return &value.ResourceType{Type: typeName}, nil
		}
	}
	refs := make(value.Array, 0, len(keys))
	for _, k := range keys {
		switch k := k.(type) {
		case value.String:
			refs = append(refs, &value.ResourceType{Type: typeName, Title: string(k)})
		case value.Array:
			for _, e := range k {
				s, ok := e.(value.String)
				if !ok {
					return nil, errorAt(sc, x, "%s[] titles must be Strings, got %s", typeName, describe(e))
				}
				refs = append(refs, &value.ResourceType{Type: typeName, Title: string(s)})
			}
		default:
			if value.IsUndef(k) {
				return nil, errorAt(sc, x, "Resource[] does not accept an undef title")
			}
			return nil, errorAt(sc, x, "%s[] titles must be Strings, got %s", typeName, describe(k))
		}
	}
	if len(keys) == 1 && len(refs) == 1 {
		if _, isArr := keys[0].(value.Array); !isArr {
			return refs[0], nil
		}
	}
	return refs, nil
}

func classAccess(sc *Scope, x *syntax.AccessExpr, keys []value.Value) (value.Value, error) {
	refs := make(value.Array, 0, len(keys))
	for _, k := range keys {
		names := value.Array{k}
		if a, ok := k.(value.Array); ok {
			names = a
		}
		for _, n := range names {
			switch n := n.(type) {
			case value.String:
				refs = append(refs, &value.ClassType{Name: trimTopColons(lower(string(n)))})
			case *value.ClassType:
				refs = append(refs, n)
			case *value.ResourceType:
				refs = append(refs, &value.ClassType{Name: lower(n.Type)})
			default:
				return nil, errorAt(sc, x, "Class[] arguments must be class names, got %s", describe(n))
			}
		}
	}
	if len(refs) == 1 {
		if _, isArr := keys[0].(value.Array); !isArr {
			return refs[0], nil
		}
	}
	return refs, nil
}

func trimTopColons(s string) string {
	if len(s) > 2 && s[:2] == "::" {
		return s[2:]
	}
	return s
}

func lower(s string) string {
	b := []byte(s)
	changed := false
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
			changed = true
		}
	}
	if !changed {
		return s
	}
	return string(b)
}
