package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"crypto/x509"
	"encoding/pem"

	"github.com/marionette-dev/marionette/ca"
	"github.com/marionette-dev/marionette/puppetconf"
	"github.com/marionette-dev/marionette/puppetdb"
	"github.com/marionette-dev/marionette/site"
)

// runCA manages a Puppet CA directory like `puppetserver ca`: setup, list,
// sign, revoke, clean and generate, on puppetserver's on-disk layout.
func runCA(args []string, stdout, stderr io.Writer) int {
	usage := func() {
		fmt.Fprintln(stderr, "usage: marionette ca setup|list|sign|revoke|clean|generate [flags] [NAME...]")
		fmt.Fprintln(stderr, "  setup                      create a new CA in --cadir")
		fmt.Fprintln(stderr, "  list [--all] [--format F]  list pending requests (all certificates with --all)")
		fmt.Fprintln(stderr, "  sign NAME...               sign pending requests (--all: every one)")
		fmt.Fprintln(stderr, "  revoke NAME...             revoke certificates")
		fmt.Fprintln(stderr, "  clean NAME...              revoke and delete certificates and requests (--deactivate: and deactivate the nodes in PuppetDB)")
		fmt.Fprintln(stderr, "  generate NAME              make a key and certificate, saved under --ssldir")
	}
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage()
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	action := args[0]
	fs := flag.NewFlagSet("ca "+action, flag.ContinueOnError)
	fs.SetOutput(stderr)
	ssldir := fs.String("ssldir", "", "Puppet's ssldir (generate saves keys and certificates here; default: puppet.conf's ssldir, else $confdir/ssl)")
	cadir := fs.String("cadir", "", "the CA directory (default: puppet.conf's cadir, else $ssldir/ca if it exists, else /etc/puppetlabs/puppetserver/ca)")
	certname := fs.String("certname", "", "this host's certname (setup: the CA is named \"Puppet CA: <certname>\")")
	caName := fs.String("ca-name", "", "the CA's common name (setup)")
	ttl := fs.String("ca-ttl", "5y", "validity of new certificates (Puppet duration: 157680000, 5y, 90d, ...)")
	keylength := fs.Int("keylength", ca.DefaultKeyLength, "RSA key size of generated keys")
	altNames := fs.String("dns-alt-names", "", "generate: comma-separated alternative names (name, DNS:name, IP:addr)")
	caClient := fs.Bool("ca-client", false, "generate: give the certificate pp_cli_auth, the CA admin API's permission")
	all := fs.Bool("all", false, "list: every certificate; sign: every pending request")
	format := fs.String("format", "text", "list: output format, text or json")
	allowSAN := fs.Bool("allow-subject-alt-names", false, "sign: accept requests with subject alternative names")
	allowAuth := fs.Bool("allow-authorization-extensions", false, "sign: accept requests with pp_auth_* extensions")
	deactivate := fs.Bool("deactivate", false, "clean: also deactivate the nodes in PuppetDB, as `puppet node deactivate` (Puppet's clean does not)")
	confdir := fs.String("confdir", "", "Puppet's confdir: its puppet.conf's ssldir and cadir, and puppetdb.conf for clean --deactivate")
	pdbURL := fs.String("puppetdb", "", "clean --deactivate: the PuppetDB `URL` (default: $confdir/puppetdb.conf)")
	fs.Usage = func() {
		usage()
		fs.PrintDefaults()
	}
	if err := fs.Parse(interleave(args[1:], fs)); err != nil {
		return 2
	}
	names := fs.Args()
	dur, err := parsePuppetDuration(*ttl)
	if err != nil {
		fmt.Fprintf(stderr, "Error: --ca-ttl: %v\n", err)
		return 2
	}
	opts := ca.Options{TTL: dur, KeyLength: *keylength, AllowSubjectAltNames: *allowSAN, AllowAuthorizationExtensions: *allowAuth}
	// Where the CA is: the flags, else puppet.conf's settings, as
	// `puppetserver ca` reads them.
	settings, err := (&site.Overrides{Confdir: *confdir, ConfigInConfdir: true}).Settings()
	if err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 1
	}
	if *ssldir == "" {
		*ssldir = settings.Get("ssldir")
		if *ssldir == "" {
			*ssldir = filepath.Join(settings.Get(puppetconf.Confdir), "ssl")
		}
	}
	dir := *cadir
	if dir == "" {
		dir = settings.Get("cadir")
	}
	if dir == "" {
		dir = ca.DefaultDir(*ssldir)
	}
	fail := func(lines ...string) int {
		fmt.Fprintln(stderr, "Error:")
		for _, l := range lines {
			fmt.Fprintln(stderr, "    "+l)
		}
		return 1
	}
	if action == "setup" {
		name := *caName
		if name == "" {
			cn := *certname
			if cn == "" {
				cn = defaultCertname()
			}
			name = "Puppet CA: " + cn
		}
		if _, err := ca.Setup(dir, ca.SetupOptions{Name: name}, opts); err != nil {
			return fail(err.Error())
		}
		fmt.Fprintf(stdout, "Generation succeeded. Find your files in %s\n", dir)
		return 0
	}
	c, err := ca.Open(dir, opts)
	if err != nil {
		return fail(err.Error())
	}
	needNames := func() bool {
		if len(names) == 0 {
			fmt.Fprintf(stderr, "Error:\n    At least one certname is required to %s\n", action)
			return false
		}
		return true
	}
	code := 0
	switch action {
	case "list":
		return caList(c, *all, *format, stdout, stderr)
	case "sign":
		if *all {
			st, err := c.List()
			if err != nil {
				return fail(err.Error())
			}
			names = nil
			for _, s := range st {
				if s.State == ca.StateRequested {
					names = append(names, s.Name)
				}
			}
			if len(names) == 0 {
				return fail("No waiting certificate requests to sign")
			}
		} else if !needNames() {
			return 2
		}
		for _, n := range names {
			_, err := c.Sign(n)
			switch {
			case errors.Is(err, ca.ErrNotFound):
				code = fail("Could not find certificate request for " + n)
			case err != nil:
				code = fail("When attempting to sign certificate request '"+n+"', received", "  "+err.Error())
			default:
				fmt.Fprintf(stdout, "Successfully signed certificate request for %s\n", n)
			}
		}
	case "revoke":
		if !needNames() {
			return 2
		}
		for _, n := range names {
			err := c.Revoke(n)
			switch {
			case errors.Is(err, ca.ErrNotFound):
				code = fail("Could not find certificate for " + n)
			case err != nil:
				code = fail("When attempting to revoke certificate '"+n+"', received", "  "+err.Error())
			default:
				fmt.Fprintf(stdout, "Certificate for %s has been revoked\n", n)
			}
		}
	case "clean":
		if !needNames() {
			return 2
		}
		var pdb *puppetdb.Client
		if *deactivate {
			if pdb, err = deactivateClient(*confdir, "", *pdbURL, stderr); err != nil {
				return fail(err.Error())
			}
		}
		for _, n := range names {
			_, hadCert := c.CertificatePEM(n)
			err := c.Clean(n)
			switch {
			case errors.Is(err, ca.ErrNotFound):
				code = fail("Could not find files to clean for " + n)
			case err != nil:
				code = fail("When attempting to clean certificate '"+n+"', received", "  "+err.Error())
			default:
				if hadCert == nil {
					fmt.Fprintf(stdout, "Certificate for %s has been revoked\n", n)
				}
				fmt.Fprintf(stdout, "Cleaned files related to %s\n", n)
			}
			if pdb == nil {
				continue
			}
			// A node without certificate files may still be active in
			// PuppetDB: deactivated all the same.
			uuid, derr := deactivateNode(context.Background(), pdb, n)
			if derr != nil {
				code = fail("When attempting to deactivate node '"+n+"' in PuppetDB, received", "  "+derr.Error())
				continue
			}
			fmt.Fprintf(stdout, "Submitted 'deactivate node' for %s with UUID %s\n", n, uuid)
		}
	case "generate":
		if len(names) == 0 && *certname != "" {
			names = []string{*certname}
		}
		if !needNames() {
			return 2
		}
		var alts []string
		for _, a := range strings.Split(*altNames, ",") {
			if a = strings.TrimSpace(a); a != "" {
				alts = append(alts, a)
			}
		}
		for _, n := range names {
			if caGenerate(c, n, alts, *caClient, *ssldir, stdout, stderr) != 0 {
				code = 1
			}
		}
	default:
		fmt.Fprintf(stderr, "marionette ca: unknown action %q\n", action)
		usage()
		return 2
	}
	return code
}

// interleave moves flags after positional arguments to the front, so that
// `ca sign NAME --cadir D` works as `puppetserver ca` allows.
func interleave(args []string, fs *flag.FlagSet) []string {
	var flags, pos []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			pos = append(pos, args[i+1:]...)
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			pos = append(pos, a)
			continue
		}
		flags = append(flags, a)
		name := strings.TrimLeft(a, "-")
		if strings.Contains(name, "=") {
			continue
		}
		if f := fs.Lookup(name); f != nil && i+1 < len(args) {
			if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
				continue
			}
			i++
			flags = append(flags, args[i])
		}
	}
	return append(flags, pos...)
}

// caList prints statuses like `puppetserver ca list`.
func caList(c *ca.CA, all bool, format string, stdout, stderr io.Writer) int {
	if format != "text" && format != "json" {
		fmt.Fprintf(stderr, "Error:\n    Unknown format flag '%s'. Valid formats are 'text', 'json'.\n", format)
		return 1
	}
	st, err := c.List()
	if err != nil {
		fmt.Fprintf(stderr, "Error:\n    %v\n", err)
		if st == nil {
			return 1
		}
	}
	groups := map[string][]ca.Status{}
	for _, s := range st {
		if all || s.State == ca.StateRequested {
			groups[s.State] = append(groups[s.State], s)
		}
	}
	if format == "json" {
		out := map[string][]ca.Status{}
		for _, k := range []string{ca.StateRequested, ca.StateSigned, ca.StateRevoked} {
			if all || len(groups[k]) > 0 || k == ca.StateRequested {
				out[k] = append([]ca.Status{}, groups[k]...)
			}
		}
		b, _ := json.Marshal(out)
		fmt.Fprintln(stdout, string(b))
		return 0
	}
	if len(groups) == 0 {
		fmt.Fprintln(stdout, "No certificates to list")
		return 0
	}
	for _, g := range []struct{ state, title string }{
		{ca.StateRequested, "Requested Certificates:"},
		{ca.StateSigned, "Signed Certificates:"},
		{ca.StateRevoked, "Revoked Certificates:"},
	} {
		list := groups[g.state]
		if len(list) == 0 {
			continue
		}
		fmt.Fprintln(stdout, g.title)
		width := 0
		for _, s := range list {
			width = max(width, len(s.Name))
		}
		for _, s := range list {
			parts := []string{fmt.Sprintf("    %-*s (SHA256)  %s", width+6, s.Name, s.Fingerprints.SHA256)}
			if len(s.SubjectAltNames) > 0 {
				parts = append(parts, "alt names: "+rubyArray(s.SubjectAltNames))
			}
			if len(s.AuthorizationExtensions) > 0 {
				var kv []string
				for _, k := range sortedKeys(s.AuthorizationExtensions) {
					kv = append(kv, k+": "+s.AuthorizationExtensions[k])
				}
				parts = append(parts, "authorization extensions: ["+strings.Join(kv, ", ")+"]")
			}
			fmt.Fprintln(stdout, strings.Join(parts, "\t"))
		}
	}
	return 0
}

// rubyArray renders a string list as Ruby's Array#to_s does, which is what
// puppetserver ca list prints for alt names.
func rubyArray(l []string) string {
	q := make([]string, len(l))
	for i, s := range l {
		q[i] = strconv.Quote(s)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

// caGenerate signs a new key for name and saves it under ssldir like
// `puppetserver ca generate`: certs/, private_keys/ and public_keys/.
func caGenerate(c *ca.CA, name string, alts []string, cliAuth bool, ssldir string, stdout, stderr io.Writer) int {
	type file struct{ kind, dir string }
	files := []file{{"Certificate", "certs"}, {"Private key", "private_keys"}, {"Public key", "public_keys"}}
	for _, f := range files {
		p := filepath.Join(ssldir, f.dir, name+".pem")
		if _, err := os.Stat(p); err == nil {
			fmt.Fprintf(stderr, "%s %s.pem already exists. Please delete it if you really want to regenerate it.\n", f.kind, name)
			return 1
		}
	}
	g, err := c.Generate(name, ca.GenerateOptions{DNSAltNames: alts, CLIAuth: cliAuth})
	if err != nil {
		fmt.Fprintf(stderr, "Error:\n    %v\n", err)
		return 1
	}
	pubDER, err := x509.MarshalPKIXPublicKey(g.Cert.PublicKey)
	if err != nil {
		fmt.Fprintf(stderr, "Error:\n    %v\n", err)
		return 1
	}
	content := map[string][]byte{
		"certs":        g.CertPEM,
		"private_keys": g.KeyPEM,
		"public_keys":  pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pubDER}),
	}
	for _, f := range files {
		dir := filepath.Join(ssldir, f.dir)
		perm := os.FileMode(0o755)
		if f.dir == "private_keys" {
			perm = 0o750
		}
		if err := os.MkdirAll(dir, perm); err != nil {
			fmt.Fprintf(stderr, "Error:\n    %v\n", err)
			return 1
		}
		p := filepath.Join(dir, name+".pem")
		if err := os.WriteFile(p, content[f.dir], 0o640); err != nil {
			fmt.Fprintf(stderr, "Error:\n    %v\n", err)
			return 1
		}
		fmt.Fprintf(stdout, "Successfully saved %s for %s to %s\n", strings.ToLower(f.kind), name, p)
	}
	return 0
}

// parsePuppetDuration reads a Puppet duration setting: seconds, or a number
// with one of the units s, m, h, d, y (a year is 365 days).
func parsePuppetDuration(s string) (time.Duration, error) {
	m := regexp.MustCompile(`^(\d+)([smhdy]?)$`).FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return 0, fmt.Errorf("invalid duration %q", s)
	}
	n, err := strconv.ParseInt(m[1], 10, 64)
	if err != nil {
		return 0, err
	}
	unit := map[string]time.Duration{"": time.Second, "s": time.Second, "m": time.Minute, "h": time.Hour, "d": 24 * time.Hour, "y": 365 * 24 * time.Hour}[m[2]]
	if n <= 0 || n > int64(1<<62)/int64(unit) {
		return 0, fmt.Errorf("duration %q out of range", s)
	}
	return time.Duration(n) * unit, nil
}

// defaultCertname is Puppet's certname default: the host name, lower case.
func defaultCertname() string {
	h, err := os.Hostname()
	if err != nil || h == "" {
		return "localhost"
	}
	return strings.ToLower(h)
}
