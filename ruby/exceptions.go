package ruby

// exceptionParents gives the superclass of the exception classes the
// subset raises or code commonly rescues, so that a rescue clause naming
// a class catches its subclasses, as in Ruby.
var exceptionParents = map[string]string{
	"StandardError":                   "Exception",
	"ScriptError":                     "Exception",
	"NotImplementedError":             "ScriptError",
	"LoadError":                       "ScriptError",
	"SyntaxError":                     "ScriptError",
	"NoMemoryError":                   "Exception",
	"SecurityError":                   "Exception",
	"SystemExit":                      "Exception",
	"SystemStackError":                "Exception",
	"SignalException":                 "Exception",
	"Interrupt":                       "SignalException",
	"ArgumentError":                   "StandardError",
	"UncaughtThrowError":              "ArgumentError",
	"EncodingError":                   "StandardError",
	"Encoding::CompatibilityError":    "EncodingError",
	"FiberError":                      "StandardError",
	"IOError":                         "StandardError",
	"EOFError":                        "IOError",
	"IndexError":                      "StandardError",
	"KeyError":                        "IndexError",
	"StopIteration":                   "IndexError",
	"LocalJumpError":                  "StandardError",
	"NameError":                       "StandardError",
	"NoMethodError":                   "NameError",
	"RangeError":                      "StandardError",
	"FloatDomainError":                "RangeError",
	"RegexpError":                     "StandardError",
	"RuntimeError":                    "StandardError",
	"FrozenError":                     "RuntimeError",
	"SystemCallError":                 "StandardError",
	"ThreadError":                     "StandardError",
	"TypeError":                       "StandardError",
	"ZeroDivisionError":               "StandardError",
	"Math::DomainError":               "ArgumentError",
	"JSON::JSONError":                 "StandardError",
	"JSON::ParserError":               "JSON::JSONError",
	"JSON::GeneratorError":            "JSON::JSONError",
	"JSON::NestingError":              "JSON::ParserError",
	"Psych::Exception":                "RuntimeError",
	"Psych::SyntaxError":              "Psych::Exception",
	"Psych::DisallowedClass":          "Psych::Exception",
	"IPAddr::Error":                   "ArgumentError",
	"IPAddr::InvalidAddressError":     "IPAddr::Error",
	"IPAddr::AddressFamilyError":      "IPAddr::Error",
	"IPAddr::InvalidPrefixError":      "IPAddr::InvalidAddressError",
	"OpenSSL::OpenSSLError":           "StandardError",
	"OpenSSL::KDF::KDFError":          "OpenSSL::OpenSSLError",
	"OpenSSL::X509::CertificateError": "OpenSSL::OpenSSLError",
	"OpenSSL::PKey::PKeyError":        "OpenSSL::OpenSSLError",
	"OpenSSL::PKey::RSAError":         "OpenSSL::PKey::PKeyError",
	"Puppet::Error":                   "RuntimeError",
	"Puppet::ParseError":              "Puppet::Error",
	"Puppet::ExecutionFailure":        "Puppet::Error",
	"Puppet::DevError":                "Puppet::Error",
}

// exceptionParent is the superclass of an exception class: a class the
// code defined (class E < StandardError), one of exceptionParents, or
// StandardError for any other class, as the subset raises no others.
func (in *interp) exceptionParent(class string) string {
	if p, ok := in.classParents[class]; ok {
		return p
	}
	if p, ok := exceptionParents[class]; ok {
		return p
	}
	if len(class) > 7 && class[:7] == "Errno::" {
		return "SystemCallError"
	}
	if class == "Exception" || class == "" {
		return ""
	}
	return "StandardError"
}

// rescues tells whether a rescue clause catches an error of class.
func (in *interp) rescues(c *rescueClause, class string) bool {
	if len(c.classes) == 0 || c.splat {
		// rescue without classes catches StandardError only.
		return in.isException(class, "StandardError")
	}
	for _, want := range c.classes {
		if in.isException(class, want) {
			return true
		}
	}
	return false
}

// isException tells whether exception class is want or a subclass of it.
func (in *interp) isException(class, want string) bool {
	for i := 0; class != "" && i < 64; i++ {
		if class == want {
			return true
		}
		class = in.exceptionParent(class)
	}
	return false
}
