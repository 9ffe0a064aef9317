package site

import (
	"fmt"
	"os"

	"github.com/marionette-dev/marionette/puppetconf"
	"github.com/marionette-dev/marionette/rubyhost"
)

// RubyFunctionsEnv is the environment variable that sets ruby_functions
// (subset or helper) when the overrides do not; it wins over puppet.conf.
const RubyFunctionsEnv = "MARIONETTE_RUBY_FUNCTIONS"

// RubyFunctions is the ruby_functions setting in effect: the override,
// else $MARIONETTE_RUBY_FUNCTIONS, else puppet.conf, else subset.
func (s *Site) RubyFunctions() (string, error) {
	if v := s.opts.RubyFunctions; v != "" {
		return puppetconf.RubyFunctionsMode(v)
	}
	if v := os.Getenv(RubyFunctionsEnv); v != "" {
		mode, err := puppetconf.RubyFunctionsMode(v)
		if err != nil {
			return "", fmt.Errorf("%s: %v", RubyFunctionsEnv, err)
		}
		return mode, nil
	}
	return s.settings.RubyFunctions()
}

// RubyHost is the Ruby helper of every compile: Options.RubyHost, else
// one the Site starts on first call when ruby_functions is helper (its
// processes start on first use), else nil.
func (s *Site) RubyHost() (*rubyhost.Host, error) {
	if s.opts.RubyHost != nil {
		return s.opts.RubyHost, nil
	}
	s.rubyOnce.Do(func() {
		mode, err := s.RubyFunctions()
		if err != nil {
			s.rubyErr = err
			return
		}
		if mode == puppetconf.RubyFunctionsHelper {
			s.rubyHost = rubyhost.New(rubyhost.Options{MaxProcs: s.opts.RubyHostProcs})
			s.ownRubyHost = true
		}
	})
	return s.rubyHost, s.rubyErr
}
