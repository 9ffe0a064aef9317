// Package names holds the two naming rules every edge of marionette applies
// to what a request, a command line or a classifier hands it: a node's
// certname and an environment's name. Both end up as file names (facts and
// reports under $vardir, environments under the environmentpath), so both
// rules also keep a name from reaching outside its directory.
package names

// MaxCertname is the longest certname accepted, in bytes: the longest
// puppetserver's CA takes. Puppet checks no length; its files limit it.
// puppetserver 7.9.5 writes a CSR through a temporary file named
// NAME.pem<19 digits>tmp, which passes NAME_MAX (255 bytes) from a 230-byte
// name on: it answers 500 (with the CA's path) for those, and signs 229
// (measured). A name no CA can sign names no node; marionette refuses it
// up front as an invalid certname, everywhere, rather than fail half way.
const MaxCertname = 229

// ValidCertname reports whether name may name a node: ASCII letters,
// digits, '.', '_' and '-', at most MaxCertname bytes, not starting with
// '.' (no "..", no hidden file) or '-' (never an option to a classifier).
//
// Puppet itself accepts any printable ASCII but '/' in a certname and
// lower-cases it for its files; these are the characters of the certnames
// its CA signs (ca.ValidateName is that stricter rule, lower case only),
// and upper case is accepted as Puppet's node names accept it.
func ValidCertname(name string) bool {
	if name == "" || len(name) > MaxCertname || name[0] == '.' || name[0] == '-' {
		return false
	}
	for i := 0; i < len(name); i++ {
		if c := name[i]; !(wordByte(c) || c == '.' || c == '-') {
			return false
		}
	}
	return true
}

// ValidEnvironment reports whether name may name an environment: Puppet's
// rule (Puppet::Node::Environment.valid_name?, /\A\w+\Z/), word characters
// only: ASCII letters, digits and '_'. Such a name has no path separator,
// so it never reaches outside the environmentpath.
func ValidEnvironment(name string) bool {
	if name == "" {
		return false
	}
	for i := 0; i < len(name); i++ {
		if !wordByte(name[i]) {
			return false
		}
	}
	return true
}

// wordByte reports whether c is a word character of a Ruby regexp (\w).
func wordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}
