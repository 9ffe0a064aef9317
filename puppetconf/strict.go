package puppetconf

import (
	"fmt"
	"strconv"
)

// Settings of the Puppet language's strictness and of the Puppet major
// whose behaviour marionette follows.
const (
	// Strict is Puppet's strict setting: off, warning or error.
	Strict = "strict"
	// StrictVariables is Puppet's strict_variables setting: whether an
	// unknown variable is an error.
	StrictVariables = "strict_variables"
	// PuppetVersion is marionette's own setting (flag --puppet-version):
	// the Puppet major, 7 or 8, whose defaults and behaviour a compile
	// follows. Puppet 8 defaults strict to error and strict_variables to
	// true.
	PuppetVersion = "puppet_version"
)

// Values of the strict setting.
const (
	StrictOff     = "off"
	StrictWarning = "warning"
	StrictError   = "error"
)

// DefaultPuppetMajor is the Puppet major followed when puppet_version is
// not set.
const DefaultPuppetMajor = 7

// PuppetMajor is the puppet_version setting: 7 (the default) or 8.
func (s *Settings) PuppetMajor() (int, error) {
	v := s.values[PuppetVersion]
	switch v {
	case "":
		return DefaultPuppetMajor, nil
	case "7", "8":
		return int(v[0] - '0'), nil
	}
	return 0, fmt.Errorf("%s: puppet_version must be 7 or 8, got %q", s.source(), v)
}

// Strictness is the strict setting: off, warning or error. Its default is
// the Puppet major's: warning for Puppet 7, error for Puppet 8.
func (s *Settings) Strictness() (string, error) {
	v, ok := s.values[Strict]
	if !ok || v == "" {
		major, err := s.PuppetMajor()
		if err != nil {
			return "", err
		}
		if major >= 8 {
			return StrictError, nil
		}
		return StrictWarning, nil
	}
	switch v {
	case StrictOff, StrictWarning, StrictError:
		return v, nil
	}
	return "", fmt.Errorf("Invalid value '%s' for parameter strict. Allowed values are 'off', 'warning', 'error'", v)
}

// StrictVariables is the strict_variables setting; its default is the
// Puppet major's: false for Puppet 7, true for Puppet 8.
func (s *Settings) StrictVariables() (bool, error) {
	v, ok := s.values[StrictVariables]
	if !ok || v == "" {
		major, err := s.PuppetMajor()
		return major >= 8, err
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		return false, fmt.Errorf("%s: strict_variables must be true or false, got %q", s.source(), v)
	}
	return b, nil
}

// checkStrict reports the first invalid strictness or version setting.
func (s *Settings) checkStrict() error {
	if _, err := s.Strictness(); err != nil {
		return err
	}
	_, err := s.StrictVariables()
	return err
}
