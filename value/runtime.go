package value

// Runtime is an object of another language that has no Puppet data form:
// what a Ruby function returns when it is not data (a Class, a Set, a
// client object), which Puppet holds as a value of type Runtime[ruby,
// 'Class'] and prints with the object's to_s. Ref identifies the object
// for the code that made it (package rubyhost: its helper session and
// the object's number there), so that it can go back to Ruby.
type Runtime struct {
	Extension
	Class string
	Text  string
	Ref   any
}

// String is the object's to_s, as Puppet prints it.
func (r *Runtime) String() string { return r.Text }
