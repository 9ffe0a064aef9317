package oneshot

import (
	"fmt"
	"os"

	"github.com/marionette-dev/marionette/compiler"
	"github.com/marionette-dev/marionette/puppetconf"
	"github.com/marionette-dev/marionette/rubyhost"
)

// RubyFunctionsEnv is the environment variable that sets ruby_functions
// (subset or helper) when the command line does not; it wins over
// puppet.conf.
const RubyFunctionsEnv = "MARIONETTE_RUBY_FUNCTIONS"

// RubyFunctions is the ruby_functions setting in effect: the flag, else
// $MARIONETTE_RUBY_FUNCTIONS, else puppet.conf, else subset.
func (o *Options) RubyFunctions(s *puppetconf.Settings) (string, error) {
	if _, flagged := o.Settings[puppetconf.RubyFunctions]; !flagged {
		if v := os.Getenv(RubyFunctionsEnv); v != "" {
			mode, err := puppetconf.RubyFunctionsMode(v)
			if err != nil {
				return "", fmt.Errorf("%s: %v", RubyFunctionsEnv, err)
			}
			return mode, nil
		}
	}
	return s.RubyFunctions()
}

// StartRubyHost sets RubyHost, when ruby_functions is helper and it is
// not set, to a Host of these Options (Close stops it); its processes
// start on first use. A caller that compiles many nodes calls it once and
// gives every request the RubyHost.
func (o *Options) StartRubyHost() error {
	s, err := o.LoadSettings()
	if err != nil {
		return &InputError{Err: err}
	}
	mode, err := o.RubyFunctions(s)
	if err != nil {
		return &InputError{Err: err}
	}
	if mode == puppetconf.RubyFunctionsHelper && o.RubyHost == nil {
		o.RubyHost = rubyhost.New(rubyhost.Options{})
		o.ownRubyHost = true
	}
	return nil
}

// attachRubyHost gives the request the Ruby helper when ruby_functions is
// helper.
func (o *Options) attachRubyHost(req *compiler.Request) error {
	if err := o.StartRubyHost(); err != nil {
		return err
	}
	req.RubyHost = o.RubyHost
	return nil
}

// Close stops the Ruby helper the Options started, if any; a RubyHost the
// caller set is the caller's to close.
func (o *Options) Close() error {
	if !o.ownRubyHost || o.RubyHost == nil {
		return nil
	}
	h := o.RubyHost
	o.RubyHost, o.ownRubyHost = nil, false
	return h.Close()
}
