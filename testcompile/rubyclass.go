package testcompile

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
)

// Many module functions (stdlib's) are implemented in Go in marionette,
// whose errors carry Puppet's message but not the Ruby exception class
// the function's Ruby code raises. Under Puppet a test sees that class
// (rspec-puppet's `and_raise_error(ArgumentError, /.../)`), so the
// service finds it where Puppet's behaviour is written down: the
// function's own Ruby file on the module path, whose `raise CLASS,
// 'message'` statements pair each message with its class. A message that
// exactly one class's raise statements produce gives that class; Puppet's
// own arity check of a 3.x function raises ArgumentError, and Ruby's own
// exceptions (NoMethodError, TypeError) keep their classes.

// raiseSite is one `raise CLASS, MESSAGE` of a function's Ruby file: the
// class and the message as a pattern (interpolations match anything).
type raiseSite struct {
	class   string
	message *regexp.Regexp
}

// sourceClasses caches the raise sites of each function file read.
type sourceClasses struct {
	mu    sync.Mutex
	files map[string][]raiseSite
}

var (
	raiseRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\braise\s*\(?\s*([A-Z]\w*(?:::[A-Z]\w*)*)\s*,\s*(?:_\(\s*)?(['"])`)
	})
	// arity3Re is the message of Puppet's arity check of a 3.x function
	// (Puppet::Parser::Functions.newfunction's :arity), an ArgumentError.
	arity3Re = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\A[a-z][\w:]*\(\): Wrong number of arguments given \(\d+ for (?:minimum )?\d+\)\z`)
	})
	// rubyMessages are the messages of Ruby's own exceptions that a
	// function's Ruby code meets inside Ruby (a method a value lacks, a
	// conversion, Base64's strict decoder), which marionette's functions
	// repeat word for word, with their classes.
	rubyMessages = sync.OnceValue(func() []raiseSite {
		return []raiseSite{
			{"NoMethodError", regexp.MustCompile("\\Aundefined method `[^']+' for ")},
			{"TypeError", regexp.MustCompile(`\Ano implicit conversion (?:of|from) \S+(?: into \S+)?\z`)},
			{"ArgumentError", regexp.MustCompile(`\Ainvalid base64\z`)},
			{"ArgumentError", regexp.MustCompile(`\Awrong number of arguments \(given \d+, expected [^)]+\)\z`)},
		}
	})
)

// class is the Ruby exception class of function's error detail as the
// function's Ruby file on modulePath raises it; "" when that is not
// known (no file, no raise whose message matches, or several classes).
func (sc *sourceClasses) class(modulePath []string, function, detail string) string {
	file, legacy := functionFile(modulePath, function)
	if file == "" {
		return ""
	}
	sc.mu.Lock()
	sites, ok := sc.files[file]
	if !ok {
		data, err := os.ReadFile(file)
		if err == nil {
			sites = raiseSites(string(data))
		}
		if sc.files == nil {
			sc.files = make(map[string][]raiseSite)
		}
		sc.files[file] = sites
	}
	sc.mu.Unlock()
	class := ""
	for _, s := range sites {
		if !s.message.MatchString(detail) {
			continue
		}
		if class != "" && class != s.class {
			return ""
		}
		class = s.class
	}
	if class == "" && legacy && arity3Re().MatchString(detail) {
		return "ArgumentError"
	}
	if class == "" {
		for _, m := range rubyMessages() {
			if m.message.MatchString(detail) {
				return m.class
			}
		}
	}
	return class
}

// functionFile is the Ruby file Puppet loads function from: the first
// module on modulePath that has it, in the 4.x API's place
// (lib/puppet/functions/a/b.rb for a::b) or the 3.x API's
// (lib/puppet/parser/functions/f.rb, a top-level name only); legacy
// says it is the latter.
func functionFile(modulePath []string, function string) (string, bool) {
	function = strings.TrimPrefix(function, "::")
	if !isFunctionName(function) {
		return "", false
	}
	parts := strings.Split(function, "::")
	for _, dir := range modulePath {
		if len(parts) > 1 {
			f := filepath.Join(append([]string{dir, parts[0], "lib", "puppet", "functions"}, parts...)...) + ".rb"
			if fileExists(f) {
				return f, false
			}
			continue
		}
		entries, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, e := range entries {
			f := filepath.Join(dir, e.Name(), "lib", "puppet", "functions", function+".rb")
			if fileExists(f) {
				return f, false
			}
			f = filepath.Join(dir, e.Name(), "lib", "puppet", "parser", "functions", function+".rb")
			if fileExists(f) {
				return f, true
			}
		}
	}
	return "", false
}

func fileExists(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular()
}

// raiseSites finds the `raise CLASS, 'literal'` statements of Ruby
// source (parenthesized, or with the message in _()). A message built by
// concatenation or format after its first literal matches any text
// that starts with the literal.
func raiseSites(src string) []raiseSite {
	var sites []raiseSite
	for _, m := range raiseRe().FindAllStringSubmatchIndex(src, -1) {
		class := src[m[2]:m[3]]
		quote := src[m[4]]
		pattern, end, ok := literalPattern(src, m[5], quote)
		if !ok {
			continue
		}
		rest := strings.TrimLeft(src[end:], " \t")
		tail := `\z`
		if strings.HasPrefix(rest, "+") || strings.HasPrefix(rest, "%") || strings.HasPrefix(rest, "\\") || strings.HasPrefix(rest, "<<") {
			tail = ""
		}
		re, err := regexp.Compile(`(?s)\A` + pattern + tail)
		if err != nil {
			continue
		}
		sites = append(sites, raiseSite{class: class, message: re})
	}
	return sites
}

// literalPattern reads the Ruby string literal starting at src[i] (after
// its opening quote) and returns a regexp matching its values: `#{...}`
// in a double-quoted literal and `%{name}` or `%s` (for a later format)
// match anything. end is the index after the closing quote.
func literalPattern(src string, i int, quote byte) (pattern string, end int, ok bool) {
	var b strings.Builder
	var lit strings.Builder
	flush := func() {
		b.WriteString(regexp.QuoteMeta(lit.String()))
		lit.Reset()
	}
	for i < len(src) {
		c := src[i]
		switch {
		case c == quote:
			flush()
			return b.String(), i + 1, true
		case c == '\n' && quote == '\'':
			lit.WriteByte(c)
			i++
		case c == '\\' && i+1 < len(src):
			next := src[i+1]
			if quote == '"' {
				switch next {
				case 'n':
					next = '\n'
				case 't':
					next = '\t'
				}
			} else if next != '\'' && next != '\\' {
				lit.WriteByte('\\')
			}
			lit.WriteByte(next)
			i += 2
		case c == '#' && quote == '"' && i+1 < len(src) && src[i+1] == '{':
			depth := 0
			j := i + 1
			for ; j < len(src); j++ {
				if src[j] == '{' {
					depth++
				} else if src[j] == '}' {
					depth--
					if depth == 0 {
						break
					}
				}
			}
			if j >= len(src) {
				return "", 0, false
			}
			flush()
			b.WriteString(`.*`)
			i = j + 1
		case c == '%' && i+1 < len(src) && (src[i+1] == '{' || src[i+1] == 's' || src[i+1] == 'd'):
			j := i + 2
			if src[i+1] == '{' {
				k := strings.IndexByte(src[i:], '}')
				if k < 0 {
					return "", 0, false
				}
				j = i + k + 1
			}
			flush()
			b.WriteString(`.*`)
			i = j
		default:
			lit.WriteByte(c)
			i++
		}
	}
	return "", 0, false
}
