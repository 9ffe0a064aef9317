package conformance

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/marionette-dev/marionette/internal/corpus"
)

// Oracle8Env names the environment variable that overrides the Puppet 8
// oracle's path (default: the repository's scripts/puppet8, which runs
// Puppet 8.10 in a Debian trixie chroot).
const Oracle8Env = "MARIONETTE_ORACLE8"

// PuppetMajor is the Puppet major the case's expected files come from: 7
// unless case.yaml says `puppet: 8`.
func (c *Case) PuppetMajor() int {
	if c.Puppet == 0 {
		return 7
	}
	return c.Puppet
}

// puppetVersionArgs are the compile flags of a case generated with a
// Puppet other than 7.
func (c *Case) puppetVersionArgs() []string {
	if c.PuppetMajor() == 7 {
		return nil
	}
	return []string{"--puppet-version", strconv.Itoa(c.PuppetMajor())}
}

// checkPuppet reports a puppet: key that names no supported major.
func (c *Case) checkPuppet() error {
	switch c.Puppet {
	case 0, 7, 8:
		return nil
	}
	return fmt.Errorf("case.yaml: puppet: %d is not a supported Puppet major (7 or 8)", c.Puppet)
}

// OracleFor is the oracle that speaks for the case: oracle7 (FindOracle's)
// for a Puppet 7 case, else the Puppet 8 oracle ($MARIONETTE_ORACLE8, else
// scripts/puppet8 when its chroot has been set up: a corpus.AbsentError
// when it has not).
func OracleFor(repoRoot, oracle7 string, c *Case) (string, error) {
	if c.PuppetMajor() == 7 {
		return oracle7, nil
	}
	if p := os.Getenv(Oracle8Env); p != "" {
		return filepath.Abs(p)
	}
	p8, err := corpus.Puppet8()
	if err != nil {
		return "", fmt.Errorf("%s: %w", c.ID, err)
	}
	return p8, nil
}
