package functions

import (
	"errors"
	"fmt"

	"github.com/marionette-dev/marionette/value"
)

// group_by, partition and tree_each: iteration that regroups or walks the
// structure of its subject.

func addGrouping(t Table) {
	collectionSigs := func(impl func(c *Ctx, subject value.Value, indexed bool, n int) (value.Value, error)) []Signature {
		mk := func(indexed bool, n int) Func {
			return func(c *Ctx, args []value.Value) (value.Value, error) { return impl(c, args[0], indexed, n) }
		}
		return []Signature{
			withBlock(1, mk(false, 1), P("collection", value.CollectionAny)),
			withBlock(2, mk(true, 2), P("array", tArray)),
			withBlock(2, mk(false, 2), P("collection", value.CollectionAny)),
		}
	}
	t["group_by"] = Dispatch("group_by", collectionSigs(groupByImpl)...)
	t["partition"] = Dispatch("partition", collectionSigs(partitionImpl)...)

	treeOptions := &value.StructType{Elements: []value.StructElement{
		treeOption("container_type", optional(tType)),
		treeOption("include_root", optional(tBoolean)),
		treeOption("include_containers", optional(tBoolean)),
		treeOption("include_values", optional(tBoolean)),
		treeOption("order", optional(value.NewEnum([]string{"breadth_first", "depth_first"}, false))),
		treeOption("include_refs", optional(tBoolean)),
	}}
	tree := variant(value.IteratorAny, tArray, tHash, value.ObjectType)
	treeSig := func(block BlockKind, n int) Signature {
		return Signature{Params: []Param{P("tree", tree), P("options", treeOptions)}, Required: 1,
			Block: block, BlockMin: n, BlockMax: n, Impl: treeEachImpl}
	}
	t["tree_each"] = Dispatch("tree_each", treeSig(RequiredBlock, 2), treeSig(RequiredBlock, 1), treeSig(NoBlock, 0))
}

func treeOption(name string, t value.Type) value.StructElement {
	return value.StructElement{Name: name, Optional: true, KeyType: optionalKey(name), Value: t}
}

// collectionArgs are the block arguments of group_by and partition for
// one element: the element, (index, element) or (key, value).
func collectionArgs(indexed bool, n int, i int, e value.Value) []value.Value {
	switch {
	case n == 1:
		return []value.Value{e}
	case indexed:
		return []value.Value{value.Integer(i), e}
	}
	if kv, ok := e.(value.Array); ok && len(kv) == 2 {
		return kv
	}
	return []value.Value{e}
}

// groupByImpl groups the elements (hash entries as [key, value]) by the
// block's result.
func groupByImpl(c *Ctx, subject value.Value, indexed bool, n int) (value.Value, error) {
	elems, err := iterElements(subject)
	if err != nil {
		return nil, err
	}
	var keys []value.Value
	groups := map[int]value.Array{}
	for i, e := range elems {
		k, err := callBlock(c, collectionArgs(indexed, n, i, e)...)
		if err != nil {
			return nil, err
		}
		at := -1
		for j, seen := range keys {
			if value.Identical(seen, k) {
				at = j
				break
			}
		}
		if at < 0 {
			at = len(keys)
			keys = append(keys, k)
		}
		groups[at] = append(groups[at], e)
	}
	b := value.NewHashBuilder(len(keys))
	for j, k := range keys {
		b.Set(k, groups[j])
	}
	return b.Build(), nil
}

// partitionImpl splits the elements into those the block accepts and the rest.
func partitionImpl(c *Ctx, subject value.Value, indexed bool, n int) (value.Value, error) {
	elems, err := iterElements(subject)
	if err != nil {
		return nil, err
	}
	yes, no := value.Array{}, value.Array{}
	for i, e := range elems {
		v, err := callBlock(c, collectionArgs(indexed, n, i, e)...)
		if err != nil {
			return nil, err
		}
		if value.Truthy(v) {
			yes = append(yes, e)
		} else {
			no = append(no, e)
		}
	}
	return value.Array{yes, no}, nil
}

// treeNode is one visited node of tree_each: its path of keys/indices
// from the root, and its value.
type treeNode struct {
	path  value.Array
	value value.Value
}

func treeEachImpl(c *Ctx, args []value.Value) (value.Value, error) {
	root := args[0]
	var containers value.Type = variant(tArray, tHash)
	withRoot, withContainers, withValues, depthFirst := true, true, true, true
	if len(args) > 1 {
		opts := args[1].(*value.Hash)
		flag := func(name string, dflt bool) bool {
			if v, ok := opts.GetString(name); ok && !value.IsUndef(v) {
				return value.Truthy(v)
			}
			return dflt
		}
		withContainers = flag("include_containers", true)
		withValues = flag("include_values", true)
		withRoot = withContainers && flag("include_root", true)
		if o, ok := opts.GetString("order"); ok && o == value.String("breadth_first") {
			depthFirst = false
		}
		if ct, ok := opts.GetString("container_type"); ok && !value.IsUndef(ct) {
			t := ct.(value.Type)
			if !value.IsAssignable(variant(tArray, tHash, value.ObjectType), t) {
				return nil, fmt.Errorf("Only Array, Hash, and Object types can be used as container types. Got %s", value.TypeString(t))
			}
			containers = t
		}
		if !withContainers && !withValues {
			return nil, errors.New("Options 'include_containers' and 'include_values' cannot both be false")
		}
	}
	if it, ok := root.(*value.Iterator); ok {
		root, _ = value.ToArray(it)
	}
	isContainer := func(v value.Value) bool { return value.IsInstance(containers, v) }
	children := func(v value.Value, path value.Array, visit func(p value.Array, child value.Value)) {
		extend := func(k value.Value) value.Array {
			return append(append(value.Array{}, path...), k)
		}
		switch v := v.(type) {
		case value.Array:
			for i, e := range v {
				visit(extend(value.Integer(i)), e)
			}
		case *value.Hash:
			for i := 0; i < v.Len(); i++ {
				k, e := v.At(i)
				visit(extend(k), e)
			}
		}
	}
	var nodes []treeNode
	if withRoot {
		nodes = append(nodes, treeNode{value.Array{}, root})
	}
	if depthFirst {
		var walk func(v value.Value, path value.Array)
		walk = func(v value.Value, path value.Array) {
			children(v, path, func(p value.Array, child value.Value) {
				if isContainer(child) {
					if withContainers {
						nodes = append(nodes, treeNode{p, child})
					}
					walk(child, p)
				} else if withValues {
					nodes = append(nodes, treeNode{p, child})
				}
			})
		}
		if isContainer(root) {
			walk(root, value.Array{})
		}
	} else {
		// Puppet's breadth-first walk lists leaf values even when
		// include_values is false.
		type level struct {
			v    value.Value
			path value.Array
		}
		queue := []level{{root, value.Array{}}}
		for len(queue) > 0 {
			cur := queue[0]
			queue = queue[1:]
			children(cur.v, cur.path, func(p value.Array, child value.Value) {
				if isContainer(child) {
					queue = append(queue, level{child, p})
					if withContainers {
						nodes = append(nodes, treeNode{p, child})
					}
				} else {
					nodes = append(nodes, treeNode{p, child})
				}
			})
		}
	}
	lam := c.lambda()
	if lam == nil {
		pairs := make(value.Array, len(nodes))
		for i, nd := range nodes {
			pairs[i] = value.Array{nd.path, nd.value}
		}
		return newIterator(pairs, pairs), nil
	}
	n := lam.ParamCount()
	for _, nd := range nodes {
		args := []value.Value{nd.value}
		if n == 2 {
			args = []value.Value{nd.path, nd.value}
		}
		_, broke, err := iterateBlock(c, args...)
		if err != nil {
			return nil, err
		}
		if broke {
			break
		}
	}
	return args[0], nil
}
