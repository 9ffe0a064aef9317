package puppetconf

import "fmt"

// RubyFunctions is marionette's own setting (flag --ruby-functions, or
// MARIONETTE_RUBY_FUNCTIONS): how module Ruby functions run. All modes run
// them in marionette's Ruby subset first; a function whose Ruby is beyond
// the subset then fails ("subset"), runs in a Ruby helper process with
// Puppet's library (package rubyhost) when one can start and fails with
// the subset's error, saying why, when none can ("auto", the default), or
// runs in the helper, whose failure to start is the error ("helper").
const RubyFunctions = "ruby_functions"

// Values of the ruby_functions setting.
const (
	RubyFunctionsSubset = "subset"
	RubyFunctionsAuto   = "auto"
	RubyFunctionsHelper = "helper"
)

// RubyFunctionsMode checks a ruby_functions value; "" is the default,
// auto.
func RubyFunctionsMode(v string) (string, error) {
	switch v {
	case "":
		return RubyFunctionsAuto, nil
	case RubyFunctionsSubset, RubyFunctionsAuto, RubyFunctionsHelper:
		return v, nil
	}
	return "", fmt.Errorf("ruby_functions must be auto, subset or helper, got %q", v)
}

// RubyFunctions is the ruby_functions setting, from puppet.conf or a flag.
func (s *Settings) RubyFunctions() (string, error) {
	return RubyFunctionsMode(s.values[RubyFunctions])
}
