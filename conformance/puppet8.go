package conformance

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
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
// scripts/puppet8 when its chroot has been set up).
func OracleFor(repoRoot, oracle7 string, c *Case) (string, error) {
	if c.PuppetMajor() == 7 {
		return oracle7, nil
	}
	if p := os.Getenv(Oracle8Env); p != "" {
		return filepath.Abs(p)
	}
	dir := os.Getenv("MARIONETTE_PUPPET8_DIR")
	if dir == "" {
		dir = "/var/cache/marionette-puppet8"
	}
	if _, err := os.Stat(filepath.Join(dir, "root", ".puppet-done")); err != nil {
		return "", fmt.Errorf("no Puppet 8 oracle for %s: run scripts/puppet8 setup (as root) or set %s", c.ID, Oracle8Env)
	}
	return filepath.Abs(filepath.Join(repoRoot, "scripts", "puppet8"))
}
