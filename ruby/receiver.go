package ruby

import "github.com/marionette-dev/marionette/value"

// MethodReceiver is a Puppet value whose methods Ruby code calls by name:
// the Puppet::LookupContext a custom Hiera backend function receives.
// Errors it returns pass through the function unchanged.
type MethodReceiver interface {
	value.Value
	ContextMethod(method string, args []value.Value) (value.Value, error)
}

// receiverMethod calls a MethodReceiver's method with Ruby arguments.
func (in *interp) receiverMethod(m MethodReceiver, name string, args []any) (any, bool, error) {
	pargs := make([]value.Value, len(args))
	for i, a := range args {
		v, err := toPuppet(a)
		if err != nil {
			return nil, true, err
		}
		pargs[i] = v
	}
	v, err := m.ContextMethod(name, pargs)
	if err != nil {
		return nil, true, err
	}
	// A value the receiver hands back again (a LookupContext's cached
	// value) is the same Ruby object each time, as under Puppet, where the
	// context caches Ruby objects.
	var objs *Objects
	if s, ok := in.scope.(ObjectSharer); ok {
		objs = s.SharedObjects()
	}
	return fromPuppetShared(v, objs), true, nil
}

// receiverBlockMethod calls a MethodReceiver's method that takes a block:
// explain { message } and cached_file_data(path) { |content| ... }. The
// receiver's "file_data" method gives a file's content for the latter.
func (in *interp) receiverBlockMethod(line int, m MethodReceiver, name string, args []any, blk *blockVal) (any, bool, error) {
	switch name {
	case "explain":
		msg, err := in.yield(line, blk)
		if err != nil {
			return nil, true, err
		}
		return in.receiverMethod(m, name, []any{msg})
	case "cached_file_data":
		content, _, err := in.receiverMethod(m, "file_data", args)
		if err != nil {
			return nil, true, err
		}
		v, err := in.yield(line, blk, content)
		return v, true, err
	}
	return in.receiverMethod(m, name, args)
}
