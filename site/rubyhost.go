package site

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/marionette-dev/marionette/puppetconf"
	"github.com/marionette-dev/marionette/rubyhost"
)

// RubyFunctionsEnv is the environment variable that sets ruby_functions
// (auto, subset or helper) when the overrides do not; it wins over
// puppet.conf.
const RubyFunctionsEnv = "MARIONETTE_RUBY_FUNCTIONS"

// RubyFunctions is the ruby_functions setting in effect: the override,
// else $MARIONETTE_RUBY_FUNCTIONS, else puppet.conf, else auto.
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

// RubyHostDir is where the Ruby helper shared by the user's marionette
// processes listens: $XDG_RUNTIME_DIR/marionette (the user's own runtime
// directory) when set, else rubyhost in the vardir.
func (s *Site) RubyHostDir() string {
	if d := os.Getenv("XDG_RUNTIME_DIR"); d != "" {
		return filepath.Join(d, "marionette")
	}
	return filepath.Join(s.settings.Get(puppetconf.Vardir), "rubyhost")
}

// RubyHost is the Ruby helper of every compile: Options.RubyHost, else
// one the Site makes on first call when ruby_functions is auto or helper
// (the helper shared by the user's processes, or a private one with
// Options.PrivateRubyHost; it starts on first use), else nil.
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
		if mode == puppetconf.RubyFunctionsSubset {
			return
		}
		o := rubyhost.Options{MaxProcs: s.opts.RubyHostProcs}
		if !s.opts.PrivateRubyHost {
			o.SocketDir = s.RubyHostDir()
		}
		s.rubyHost = rubyhost.New(o)
		s.ownRubyHost = true
	})
	return s.rubyHost, s.rubyErr
}

// rubyHostOptional reports whether a compile whose helper cannot start
// gives the subset's error instead (ruby_functions = auto).
func (s *Site) rubyHostOptional() bool {
	mode, err := s.RubyFunctions()
	return err == nil && mode == puppetconf.RubyFunctionsAuto
}
