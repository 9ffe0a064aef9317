package ruby

import "strings"

// classFunc implements methods of a class or module called on the class
// itself (File.join, JSON.parse); class and name are the ones it was
// called by. ok false means the arguments fit no form implemented here.
type classFunc func(in *interp, line int, class, name string, args []any) (v any, ok bool, err error)

// classTable holds the class methods by "Class.name".
type classTable map[string]classFunc

// def adds f as each of the space-separated methods of each of the
// space-separated classes.
func (t classTable) def(classes, names string, f classFunc) {
	for _, c := range strings.Fields(classes) {
		for _, n := range strings.Fields(names) {
			t[c+"."+n] = f
		}
	}
}

// classMethods lists the class methods of the classes and modules this
// package implements; the families share their implementation.
func classMethods() classTable {
	t := classTable{}
	t.def("File", "join basename dirname extname expand_path exist? exists? file? directory? read", func(in *interp, line int, class, name string, args []any) (any, bool, error) {
		return in.fileMethod(line, name, args)
	})
	t.def("Digest::MD5 Digest::SHA1 Digest::SHA256 Digest::SHA512", "digest hexdigest base64digest", func(in *interp, line int, class, name string, args []any) (any, bool, error) {
		return in.digestMethod(line, class, name, args)
	})
	crypto := func(in *interp, line int, class, name string, args []any) (any, bool, error) {
		return in.cryptoClassMethod(line, class, name, args)
	}
	t.def("Base64", "strict_encode64 encode64 urlsafe_encode64 strict_decode64", crypto)
	t.def("OpenSSL::X509::Certificate OpenSSL::PKey::RSA OpenSSL::Digest OpenSSL::HMAC", "new", crypto)
	t.def("OpenSSL::HMAC", "digest hexdigest", crypto)
	t.def("OpenSSL::KDF", "pbkdf2_hmac", crypto)
	t.def("Shellwords", "escape shellescape split shellsplit shellwords join shelljoin", func(in *interp, line int, class, name string, args []any) (any, bool, error) {
		return in.shellwordsMethod(line, name, args)
	})
	t.def("Zlib", "crc32", func(in *interp, line int, class, name string, args []any) (any, bool, error) {
		return in.zlibMethod(line, name, args)
	})
	t.def("JSON", "parse generate dump fast_generate pretty_generate", func(in *interp, line int, class, name string, args []any) (any, bool, error) {
		return in.jsonMethod(line, name, args)
	})
	for _, class := range []string{"YAML", "Psych"} {
		t.def(class, "safe_load load", func(in *interp, line int, class, name string, args []any) (any, bool, error) {
			return in.yamlMethod(line, name, args)
		})
	}
	t.def("Hash", "[]", func(in *interp, line int, class, name string, args []any) (any, bool, error) {
		v, err := in.hashFromArgs(line, args)
		return v, true, err
	})
	t.def("Gem::Version", "new create", func(in *interp, line int, class, name string, args []any) (any, bool, error) {
		v, err := in.newGemVersion(line, args)
		return v, true, err
	})
	t.def("Gem::Version", "correct?", func(in *interp, line int, class, name string, args []any) (any, bool, error) {
		if len(args) != 1 {
			return nil, false, nil
		}
		_, ok := parseGemVersion(toS(args[0]))
		return ok, true, nil
	})
	t.def("Puppet::Util::Package", "versioncmp", func(in *interp, line int, class, name string, args []any) (any, bool, error) {
		// Puppet's versioncmp function is this method: the compile's
		// implementation answers for both.
		if len(args) < 2 || len(args) > 3 {
			return nil, false, nil
		}
		for _, a := range args[:2] {
			if _, ok := a.(*rstr); !ok {
				return nil, true, in.unsupported(line, "Puppet::Util::Package.versioncmp of %s", className(a))
			}
		}
		if len(args) == 3 {
			if _, ok := args[2].(bool); !ok {
				return nil, true, in.unsupported(line, "Puppet::Util::Package.versioncmp with %s", inspect(args[2]))
			}
		}
		v, err := in.callPuppet(line, "versioncmp", args)
		return v, true, err
	})
	t.def("Puppet::Parser::Files", "find_template find_file", func(in *interp, line int, class, name string, args []any) (any, bool, error) {
		return in.findInModule(line, name, args)
	})
	t.def(typeParserClass, "singleton", func(in *interp, line int, class, name string, args []any) (any, bool, error) {
		if len(args) != 0 {
			return nil, false, nil
		}
		return &typeParserObj{}, true, nil
	})
	t.def("Puppet::FileSystem", "exist? file? directory? read read_preserve_line_endings", func(in *interp, line int, class, name string, args []any) (any, bool, error) {
		// Puppet's file system layer over Ruby's File: the same answers
		// for the modules' files (a read's options hash is ignored).
		if name == "read" || name == "read_preserve_line_endings" {
			if len(args) == 2 {
				if _, isHash := args[1].(*rhash); isHash {
					args = args[:1]
				}
			}
			name = "read"
		}
		if len(args) != 1 {
			return nil, false, nil
		}
		return in.fileMethod(line, name, args)
	})
	t.def("Puppet::Util", "absolute_path?", func(in *interp, line int, class, name string, args []any) (any, bool, error) {
		return in.absolutePath(line, args)
	})
	t.def("URI", "parse", func(in *interp, line int, class, name string, args []any) (any, bool, error) {
		v, err := in.parseURI(line, args)
		return v, true, err
	})
	t.def("IPAddr", "new", func(in *interp, line int, class, name string, args []any) (any, bool, error) {
		v, err := in.newIPAddr(line, args)
		return v, true, err
	})
	t.def(sensitiveClass, "new", func(in *interp, line int, class, name string, args []any) (any, bool, error) {
		if len(args) != 1 {
			return nil, false, nil
		}
		return &rsensitive{args[0]}, true, nil
	})
	t.def(runtime3Support, "find_resource_type", func(in *interp, line int, class, name string, args []any) (any, bool, error) {
		return in.findResourceType(line, args)
	})
	t.def("CGI", "escape unescape", func(in *interp, line int, class, name string, args []any) (any, bool, error) {
		return in.cgiMethod(line, name, args)
	})
	t.def("Puppet", "[] "+puppetLogLevels, func(in *interp, line int, class, name string, args []any) (any, bool, error) {
		return in.puppetClassMethod(line, name, args)
	})
	// Puppet::Parser::Functions.function(name) loads a 3.x function for
	// scope.function_<name> (memcached's template) and returns that
	// method's name; functions load here on their first call.
	t.def("Puppet::Parser::Functions", "function", func(in *interp, line int, class, name string, args []any) (any, bool, error) {
		if len(args) != 1 {
			return nil, false, nil
		}
		return newStr("function_" + toS(args[0])), true, nil
	})
	t.def("Regexp", "new compile", func(in *interp, line int, class, name string, args []any) (any, bool, error) {
		return in.regexpNew(line, args)
	})
	return t
}

// regexpNew is Regexp.new(source[, options]): options are an Integer of
// Regexp::IGNORECASE (1), EXTENDED (2) and MULTILINE (4), or any other
// true value for IGNORECASE; a Regexp source is copied with its options.
func (in *interp) regexpNew(line int, args []any) (any, bool, error) {
	if len(args) < 1 || len(args) > 2 {
		return nil, false, nil
	}
	if re, ok := args[0].(*rregexp); ok {
		return re, true, nil
	}
	src, ok := args[0].(*rstr)
	if !ok {
		return nil, true, in.errorf(line, "TypeError", "no implicit conversion of %s into String", className(args[0]))
	}
	opts := ""
	if len(args) == 2 {
		switch o := args[1].(type) {
		case int64:
			for _, f := range []struct {
				bit  int64
				flag string
			}{{4, "m"}, {1, "i"}, {2, "x"}} {
				if o&f.bit != 0 {
					opts += f.flag
				}
			}
		case nil, bool:
			if truthy(o) {
				opts = "i"
			}
		case *rstr:
			return nil, true, in.unsupported(line, "Regexp.new with options %s", quoteString(o.s))
		default:
			opts = "i"
		}
	}
	re, err := in.compileRegexp(line, src.s, opts)
	return re, true, err
}
