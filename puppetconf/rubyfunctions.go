package puppetconf

import "fmt"

// RubyFunctions is marionette's own setting (flag --ruby-functions, or
// MARIONETTE_RUBY_FUNCTIONS): how module Ruby functions run. "subset"
// (the default) runs them in marionette's Ruby subset only; "helper" runs
// the ones beyond the subset in a Ruby helper process with Puppet's
// library (package rubyhost).
const RubyFunctions = "ruby_functions"

// Values of the ruby_functions setting.
const (
	RubyFunctionsSubset = "subset"
	RubyFunctionsHelper = "helper"
)

// RubyFunctionsMode checks a ruby_functions value; "" is the default,
// subset.
func RubyFunctionsMode(v string) (string, error) {
	switch v {
	case "":
		return RubyFunctionsSubset, nil
	case RubyFunctionsSubset, RubyFunctionsHelper:
		return v, nil
	}
	return "", fmt.Errorf("ruby_functions must be subset or helper, got %q", v)
}

// RubyFunctions is the ruby_functions setting, from puppet.conf or a flag.
func (s *Settings) RubyFunctions() (string, error) {
	return RubyFunctionsMode(s.values[RubyFunctions])
}
