package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/marionette-dev/marionette/dataformat"
	"github.com/marionette-dev/marionette/puppetconf"
	"github.com/marionette-dev/marionette/value"
)

// Bounds of the commands a compile runs: an environment's config_version
// and trusted_external_command. Puppet sets none; a command that hangs or
// floods must not hold a compile slot or the server's memory.
const (
	DefaultCommandTimeout = 30 * time.Second
	// MaxConfigVersionOutput bounds config_version's output: a version.
	MaxConfigVersionOutput = 64 << 10
	// MaxTrustedExternalOutput bounds trusted_external_command's JSON.
	MaxTrustedExternalOutput = 1 << 20
)

// serverFacts are the facts Puppet's server adds to every compile about
// itself, from Facter's view of the host: servername (its FQDN), serverip
// and serverip6 (the first global address of an interface that is up).
func serverFacts() *value.Hash {
	b := value.NewHashBuilder(3)
	if name := hostFQDN(); name != "" {
		b.Set(value.String("servername"), value.String(name))
	}
	v4, v6 := hostAddresses()
	if v4 != "" {
		b.Set(value.String("serverip"), value.String(v4))
	}
	if v6 != "" {
		b.Set(value.String("serverip6"), value.String(v6))
	}
	return b.Build()
}

// hostFQDN is the host's name with its domain when the resolver knows it.
func hostFQDN() string {
	host, err := os.Hostname()
	if err != nil || strings.Contains(host, ".") {
		return strings.ToLower(host)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if cname, err := net.DefaultResolver.LookupCNAME(ctx, host); err == nil {
		if name := strings.TrimSuffix(cname, "."); strings.Contains(name, ".") {
			return strings.ToLower(name)
		}
	}
	return strings.ToLower(host)
}

// hostAddresses are the first global IPv4 and IPv6 addresses of the
// host's interfaces that are up, not loopback.
func hostAddresses() (v4, v6 string) {
	ifaces, err := net.Interfaces()
	if err != nil {
		return "", ""
	}
	for _, ifc := range ifaces {
		if ifc.Flags&net.FlagUp == 0 || ifc.Flags&net.FlagLoopback != 0 {
			continue
		}
		addrs, err := ifc.Addrs()
		if err != nil {
			continue
		}
		for _, a := range addrs {
			ipn, ok := a.(*net.IPNet)
			if !ok || !ipn.IP.IsGlobalUnicast() {
				continue
			}
			if ip4 := ipn.IP.To4(); ip4 != nil {
				if v4 == "" {
					v4 = ip4.String()
				}
			} else if v6 == "" {
				v6 = ipn.IP.String()
			}
		}
	}
	return v4, v6
}

// limitedBuffer keeps up to max bytes and notes that more came.
type limitedBuffer struct {
	buf      bytes.Buffer
	max      int
	overflow bool
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if room := b.max - b.buf.Len(); len(p) > room {
		b.overflow = true
		if room > 0 {
			b.buf.Write(p[:room])
		}
		return 0, errors.New("output limit exceeded")
	}
	return b.buf.Write(p)
}

// runBounded runs argv in dir (no shell) within timeout, its output bounded
// by max bytes; the error says which bound it hit, or how it failed.
func runBounded(ctx context.Context, argv []string, dir string, timeout time.Duration, max int) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.WaitDelay = time.Second // a child holding the pipe open does not hold us
	out := &limitedBuffer{max: max}
	var stderr limitedBuffer
	stderr.max = 4 << 10
	cmd.Stdout, cmd.Stderr = out, &stderr
	err := cmd.Run()
	switch {
	case out.overflow:
		return nil, fmt.Errorf("its output exceeds %d bytes", max)
	case ctx.Err() == context.DeadlineExceeded:
		return nil, fmt.Errorf("it did not finish within %v", timeout)
	case err != nil:
		msg := strings.TrimSpace(stderr.buf.String())
		if msg != "" {
			return nil, fmt.Errorf("%v: %s", err, msg)
		}
		return nil, err
	}
	return out.buf.Bytes(), nil
}

// commandArgv splits a command setting as Ruby's exec of one string does
// without shell metacharacters: on blanks; with them, through /bin/sh.
// A relative program is found relative to dir.
func commandArgv(command, dir string) []string {
	if strings.ContainsAny(command, "*?{}[]<>()~&|\\$;'`\"\n#=%") {
		return []string{"/bin/sh", "-c", command}
	}
	argv := strings.Fields(command)
	if len(argv) > 0 && !filepath.IsAbs(argv[0]) && strings.Contains(argv[0], "/") {
		argv[0] = filepath.Join(dir, argv[0])
	}
	return argv
}

// configVersion runs an environment's config_version command in its
// directory, as Puppet does for every compile: its output, stripped, is
// the catalog's version.
func configVersion(ctx context.Context, command, envDir string, timeout time.Duration) (string, error) {
	argv := commandArgv(command, envDir)
	if len(argv) == 0 {
		return "", nil
	}
	out, err := runBounded(ctx, argv, envDir, timeout, MaxConfigVersionOutput)
	if err != nil {
		return "", fmt.Errorf("Execution of config_version command `%s` failed: %v", command, err)
	}
	return strings.TrimSpace(string(out)), nil
}

// trustedExternal runs trusted_external_command for certname, as Puppet
// does: its JSON object output is $trusted['external'].
func trustedExternal(ctx context.Context, command, certname string, timeout time.Duration) (*value.Hash, error) {
	out, err := runBounded(ctx, []string{command, certname}, "/", timeout, MaxTrustedExternalOutput)
	if err != nil {
		return nil, fmt.Errorf("Failed to run trusted external command %s for %s: %v", command, certname, err)
	}
	if !json.Valid(out) {
		return nil, fmt.Errorf("trusted external command %s for %s printed no JSON", command, certname)
	}
	v, err := dataformat.FromJSON(out, command)
	if err != nil {
		return nil, fmt.Errorf("trusted external command %s for %s: %v", command, certname, err)
	}
	h, ok := v.(*value.Hash)
	if !ok {
		return nil, fmt.Errorf("trusted external command %s for %s printed %s, not a JSON object", command, certname, value.ToString(v))
	}
	return h, nil
}

// checkTrustedExternal refuses a trusted_external_command marionette
// does not run: a directory of commands (Puppet 7's per-file form), or a
// file that is not there.
func checkTrustedExternal(s *puppetconf.Settings) error {
	command := s.Get("trusted_external_command")
	if command == "" {
		return nil
	}
	fi, err := os.Stat(command)
	switch {
	case err != nil:
		return fmt.Errorf("trusted_external_command %s: %w", command, err)
	case fi.IsDir():
		return fmt.Errorf("trusted_external_command %s is a directory: marionette serve runs one command, not a directory of them", command)
	}
	return nil
}
