package ca

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"strings"
	"time"
)

// Autosign is the autosign policy, from Puppet's autosign setting.
type Autosign struct {
	// All signs every CSR (autosign = true).
	All bool
	// Path is an autosign.conf whitelist or a policy executable; which one
	// is decided when a CSR arrives, by the file's executable bit, as
	// puppetserver does. A missing file signs nothing.
	Path string
	// Timeout bounds a policy executable; 0 means DefaultAutosignTimeout.
	Timeout time.Duration
}

// ParseAutosign reads Puppet's autosign setting: "true", "false" or a path.
func ParseAutosign(setting string) Autosign {
	switch strings.TrimSpace(setting) {
	case "true":
		return Autosign{All: true}
	case "false", "":
		return Autosign{}
	}
	return Autosign{Path: setting}
}

// allows decides whether name's CSR (PEM) is signed automatically. An error
// is a failing or timed-out policy executable, which means "no".
func (a Autosign) allows(name string, csrPEM []byte) (bool, error) {
	if a.All {
		return true, nil
	}
	if a.Path == "" {
		return false, nil
	}
	fi, err := os.Stat(a.Path)
	if err != nil {
		return false, nil
	}
	if fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0 {
		return a.runPolicy(name, csrPEM)
	}
	return whitelistMatches(a.Path, name)
}

// An error from allows means the CSR is not autosigned; it says why, for the
// log.

// runPolicy runs the policy executable with the certname as its argument
// and the CSR on stdin; exit status 0 means sign.
func (a Autosign) runPolicy(name string, csrPEM []byte) (bool, error) {
	timeout := a.Timeout
	if timeout <= 0 {
		timeout = DefaultAutosignTimeout
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, a.Path, name)
	cmd.Stdin = bytes.NewReader(csrPEM)
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &out
	// A policy that leaves a child holding its output open must not hang
	// the CA after it is killed.
	cmd.WaitDelay = time.Second
	err := cmd.Run()
	if ctx.Err() != nil {
		return false, fmt.Errorf("autosign command '%s %s' timed out after %s", a.Path, name, timeout)
	}
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return false, fmt.Errorf("autosign command '%s' rejected certificate '%s' because the exit code was %d, not zero",
			a.Path, name, exit.ExitCode())
	}
	if err != nil {
		return false, fmt.Errorf("autosign command '%s %s': %v", a.Path, name, err)
	}
	return true, nil
}

// whitelistMatches reads autosign.conf: one entry a line, blank lines and
// lines starting with "#" ignored; a line with "#" or a space in it is
// invalid and matches nothing; "*" matches all; "*.a.b" matches names under
// a.b, and a.b itself, case-insensitively; anything else is an exact name.
func whitelistMatches(path, name string) (bool, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 4096), 1<<20)
	for sc.Scan() {
		line := strings.TrimSuffix(sc.Text(), "\r")
		if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
			continue
		}
		if lineMatches(line, name) {
			return true, nil
		}
	}
	return false, sc.Err()
}

func lineMatches(line, name string) bool {
	if strings.ContainsAny(line, "# ") {
		return false
	}
	if line == "*" {
		return true
	}
	if strings.HasPrefix(line, "*") {
		return globMatches(line, name)
	}
	return line == name
}

// globMatches compares reversed domain labels: the glob's labels, less its
// leading "*", must be a prefix of the name's.
func globMatches(glob, name string) bool {
	g := reversedLabels(glob)
	g = g[:len(g)-1]
	n := reversedLabels(name)
	if len(g) > len(n) {
		return false
	}
	for i := range g {
		if g[i] != n[i] {
			return false
		}
	}
	return true
}

func reversedLabels(s string) []string {
	l := strings.Split(strings.ToLower(s), ".")
	for i, j := 0, len(l)-1; i < j; i, j = i+1, j-1 {
		l[i], l[j] = l[j], l[i]
	}
	return l
}
