package ca

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// These tests check our files against the tools Puppet itself uses: the
// openssl command line, and real Puppet's Ruby SSL code (making a CSR as the
// agent does, and building the agent's SSL context from our CA, CRL and
// certificate). Each is skipped when its tool is not installed.

// rubyCSR makes a CSR with real Puppet's Puppet::SSL::CertificateRequest, as
// `puppet agent` does with dns_alt_names and csr_attributes.yaml.
const rubyCSR = `
require 'puppet'
require 'puppet/ssl'
Puppet.initialize_settings(['--confdir', ARGV[1], '--vardir', ARGV[1]])
Puppet::SSL::Oids.register_puppet_oids
key = OpenSSL::PKey::RSA.new(2048)
File.write(ARGV[2], key.to_pem)
csr = Puppet::SSL::CertificateRequest.new(ARGV[0])
csr.generate(key, dns_alt_names: 'alt1.example.com',
  extension_requests: {'pp_role' => 'web', '1.3.6.1.4.1.34380.1.2.1' => 'secret'},
  csr_attributes: {'1.2.840.113549.1.9.7' => 'pw'})
puts csr.to_s
`

// rubyContext builds the agent's verified SSL context (chain + CRL
// revocation checking) from our files with real Puppet's SSLProvider, then
// prints the certificate's Puppet extensions as Puppet reads them.
const rubyContext = `
require 'puppet'
require 'puppet/ssl'
Puppet.initialize_settings(['--confdir', ARGV[0], '--vardir', ARGV[0]])
Puppet::SSL::Oids.register_puppet_oids
prov = Puppet::X509::CertProvider.new
cacerts = prov.load_cacerts_from_pem(File.read(ARGV[1]))
crls = prov.load_crls_from_pem(File.read(ARGV[2]))
key = prov.load_private_key_from_pem(File.read(ARGV[3]))
cert = prov.load_client_cert_from_pem(File.read(ARGV[4]))
begin
  Puppet::SSL::SSLProvider.new.create_context(cacerts: cacerts, crls: crls, private_key: key, client_cert: cert, revocation: :chain)
  puts "ok"
rescue => e
  puts "error: #{e.message}"
end
Puppet::SSL::Certificate.from_instance(cert).custom_extensions.each { |x| puts "#{x['oid']}=#{x['value']}" }
`

func haveRubyPuppet(t *testing.T) {
	if _, err := exec.LookPath("ruby"); err != nil {
		t.Skip("ruby not installed")
	}
	if err := exec.Command("ruby", "-e", "require 'puppet'").Run(); err != nil {
		t.Skip("Puppet's Ruby library not installed")
	}
}

func runRuby(t *testing.T, script string, args ...string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "s.rb")
	os.WriteFile(p, []byte(script), 0o644)
	out, err := exec.Command("ruby", append([]string{p}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("ruby: %v\n%s", err, out)
	}
	return string(out)
}

func TestInteropPuppetRuby(t *testing.T) {
	haveRubyPuppet(t)
	c := newCA(t, func(o *Options) { o.AllowSubjectAltNames = true; o.Now = nil })
	conf := t.TempDir()
	keyFile := filepath.Join(conf, "key.pem")
	csr := runRuby(t, rubyCSR, "agent.example.com", conf, keyFile)
	if _, err := c.SubmitCSR("agent.example.com", []byte(csr)); err != nil {
		t.Fatal(err)
	}
	cert, err := c.Sign("agent.example.com")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(cert.DNSNames, ",") != "agent.example.com,alt1.example.com" {
		t.Errorf("SAN %v", cert.DNSNames)
	}
	certFile := filepath.Join(c.Dir(), SignedDir, "agent.example.com.pem")
	caFile, crlFile := filepath.Join(c.Dir(), CACertFile), filepath.Join(c.Dir(), CRLFile)
	out := runRuby(t, rubyContext, conf, caFile, crlFile, keyFile, certFile)
	for _, want := range []string{"ok\n", "pp_role=web\n", "1.3.6.1.4.1.34380.1.2.1=secret\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("Puppet's view lacks %q:\n%s", want, out)
		}
	}
	if err := c.Revoke("agent.example.com"); err != nil {
		t.Fatal(err)
	}
	out = runRuby(t, rubyContext, conf, caFile, crlFile, keyFile, certFile)
	if !strings.Contains(out, "error: Certificate 'CN=agent.example.com' is revoked") {
		t.Errorf("Puppet accepted a revoked certificate:\n%s", out)
	}
}

func TestInteropOpenSSL(t *testing.T) {
	if _, err := exec.LookPath("openssl"); err != nil {
		t.Skip("openssl not installed")
	}
	c := newCA(t, func(o *Options) { o.Now = nil })
	g, err := c.Generate("puppet.example.com", GenerateOptions{CLIAuth: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.SubmitCSR("agent", makeCSR(t, csrSpec{cn: "agent"})); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Sign("agent"); err != nil {
		t.Fatal(err)
	}
	if g.Cert.Subject.CommonName != "puppet.example.com" {
		t.Errorf("generated %v", g.Cert.Subject)
	}
	caFile, crlFile := filepath.Join(c.Dir(), CACertFile), filepath.Join(c.Dir(), CRLFile)
	verify := func(name string) string {
		out, _ := exec.Command("openssl", "verify", "-crl_check", "-purpose", "sslclient", "-CAfile", caFile, "-CRLfile", crlFile,
			filepath.Join(c.Dir(), SignedDir, name+".pem")).CombinedOutput()
		return string(out)
	}
	for _, n := range []string{"puppet.example.com", "agent"} {
		if out := verify(n); !strings.Contains(out, ": OK") {
			t.Errorf("openssl verify %s:\n%s", n, out)
		}
	}
	if err := c.Revoke("agent"); err != nil {
		t.Fatal(err)
	}
	if out := verify("agent"); !strings.Contains(out, "certificate revoked") {
		t.Errorf("openssl accepted a revoked certificate:\n%s", out)
	}
	if out := verify("puppet.example.com"); !strings.Contains(out, ": OK") {
		t.Errorf("openssl verify after revoking another:\n%s", out)
	}
	// The CA key and public key files are what openssl expects.
	out, err := exec.Command("openssl", "rsa", "-in", filepath.Join(c.Dir(), CAKeyFile), "-check", "-noout").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "RSA key ok") {
		t.Errorf("openssl rsa -check: %v %s", err, out)
	}
	out, err = exec.Command("openssl", "crl", "-in", crlFile, "-noout", "-text").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "X509v3 CRL Number: \n                1") || !strings.Contains(string(out), "Key Compromise") {
		t.Errorf("openssl crl:\n%s", out)
	}
}
