package conformance

import (
	"bufio"
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// MachinePathsFile, in a site's stub directory (sites/<site>/stub/), lists
// the absolute paths of the compiling machine that the site's code reads
// (file(), loadyaml() of /etc/puppetlabs/puppet/...), each with the stub
// directory that stands for it:
//
//	/etc/puppetlabs/puppet puppet
//
// scripts/sites-machine-paths makes each path a link to its stub
// directory; a case of the site is skipped (with one summary line) when a
// path does not hold the stub's files.
const MachinePathsFile = "machine-paths"

// MachinePathsMissing says that a machine path
// the case's site reads does not hold its stub's files; nil when they all
// do, or the case is not a sites case with such paths.
func (c *Case) MachinePathsMissing() error {
	parts := strings.Split(c.ID, "/")
	if len(parts) < 3 || parts[0] != SitesArea {
		return nil
	}
	stub := filepath.Join(c.Dir, "..", "stub")
	data, err := os.ReadFile(filepath.Join(stub, MachinePathsFile))
	if err != nil {
		return nil
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) != 2 || strings.HasPrefix(f[0], "#") {
			continue
		}
		if err := sameFiles(filepath.Join(stub, f[1]), f[0]); err != nil {
			return fmt.Errorf("the %s cases read %s, which does not hold the files of sites/%s/stub/%s: run scripts/sites-machine-paths", parts[1], f[0], parts[1], f[1])
		}
	}
	return nil
}

// sameFiles checks that every regular file below dir (not following its
// links) is also below machine with the same content, and that each of
// its links has a counterpart there.
func sameFiles(dir, machine string) error {
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		other := filepath.Join(machine, rel)
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			if _, err := os.Stat(other); err != nil {
				return err
			}
		case d.Type().IsRegular():
			want, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			got, err := os.ReadFile(other)
			if err != nil {
				return err
			}
			if !bytes.Equal(want, got) {
				return fmt.Errorf("%s differs", other)
			}
		}
		return nil
	})
}
