package ruby

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/marionette-dev/marionette/hiera"
	"github.com/marionette-dev/marionette/value"
)

// toYAML implements to_yaml (Ruby's Psych emitter) for plain data. Psych's
// rules for quoting strings are intricate, so only strings that it surely
// emits plain are accepted; anything else is reported as unsupported rather
// than risk different output.
func (in *interp) toYAML(line int, v any) (string, error) {
	switch x := v.(type) {
	case nil:
		return "---\n", nil
	case *rarray:
		if len(x.a) == 0 {
			return "--- []\n", nil
		}
	case *rhash:
		if len(x.keys) == 0 {
			return "--- {}\n", nil
		}
	default:
		s, err := in.yamlScalar(line, v)
		if err != nil {
			return "", err
		}
		return "--- " + s + "\n", nil
	}
	var b strings.Builder
	b.WriteString("---\n")
	if err := in.yamlBlock(line, &b, v, 0, 0); err != nil {
		return "", err
	}
	return b.String(), nil
}

// yamlPlain matches strings Psych surely emits without quotes (unless
// reserved): the common case, decided without parsing.
var yamlPlain = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.\-/]*(( +|:)[A-Za-z0-9_.\-/]+)*$`)
})

// yamlReserved are the YAML 1.1 words Psych quotes.
func yamlReserved(s string) bool {
	switch strings.ToLower(s) {
	case "y", "n", "yes", "no", "true", "false", "on", "off", "null", "nan", "inf":
		return true
	}
	return false
}

// yamlString emits a one-line string as Psych does: double quotes for "y",
// "n" and strings that start with a non-word character and hold no '"';
// single quotes for strings a YAML reader would not read back as that same
// string (Psych asks its scalar scanner, then libyaml refuses plain style
// for text such as ": " or " #"); plain otherwise. ok is false for what
// this does not follow: line breaks, control characters, non-ASCII text in
// double quotes, and strings long enough for libyaml to fold.
func yamlString(s string) (string, bool) {
	if yamlPlain().MatchString(s) && !yamlReserved(s) && len(s) < 80 {
		return s, true
	}
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] == 0x7f {
			return "", false
		}
	}
	switch {
	case s == "":
		return "''", true
	case len(s) >= 80 && strings.Contains(s, " "):
		return "", false
	case s == "<<":
		return "!!str '<<'", true
	case s == "y" || s == "n":
		return `"` + s + `"`, true
	case !startsWithWordChar(s) && !strings.Contains(s, `"`):
		for i := 0; i < len(s); i++ {
			if s[i] >= 0x80 {
				return "", false
			}
		}
		return `"` + strings.ReplaceAll(s, `\`, `\\`) + `"`, true
	}
	if v, err := hiera.FromYAML([]byte(s), "to_yaml"); err == nil && v == value.String(s) && !octalLike(s) &&
		!strings.HasSuffix(s, " ") && !strings.HasPrefix(s, " ") {
		return s, true
	}
	return "'" + strings.ReplaceAll(s, "'", "''") + "'", true
}

// octalLike matches Psych's /\A0[0-7]*[89]/: no octal number, but quoted.
func octalLike(s string) bool {
	i := 1
	if s == "" || s[0] != '0' {
		return false
	}
	for i < len(s) && s[i] >= '0' && s[i] <= '7' {
		i++
	}
	return i < len(s) && (s[i] == '8' || s[i] == '9')
}

// startsWithWordChar reports whether s starts with a letter, digit or '_'
// (Ruby's [[:word:]], Unicode letters included).
func startsWithWordChar(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r)
}

func (in *interp) yamlScalar(line int, v any) (string, error) {
	switch x := v.(type) {
	case nil:
		return "", nil
	case bool:
		return strconv.FormatBool(x), nil
	case int64:
		return strconv.FormatInt(x, 10), nil
	case float64:
		if math.IsInf(x, 0) || math.IsNaN(x) {
			break
		}
		return formatFloat(x), nil
	case *rstr:
		if q, ok := yamlString(x.s); ok {
			return q, nil
		}
		return "", in.unsupported(line, "to_yaml of the string %s", quoteString(x.s))
	case symbol:
		if yamlPlain().MatchString(string(x)) {
			return ":" + string(x), nil
		}
	case *rarray:
		if len(x.a) == 0 {
			return "[]", nil
		}
	case *rhash:
		if len(x.keys) == 0 {
			return "{}", nil
		}
	}
	return "", in.unsupported(line, "to_yaml of %s", truncate(inspect(v), 40))
}

// yamlBlock writes a non-empty collection in block style at an indent;
// first is the indent of the first line, which differs when the collection
// starts right after a "- " of an enclosing sequence.
func (in *interp) yamlBlock(line int, b *strings.Builder, v any, indent, first int) error {
	pad := func(k int) string {
		if k == 0 {
			return strings.Repeat(" ", first)
		}
		return strings.Repeat(" ", indent)
	}
	if in.depth++; in.depth > MaxCallDepth {
		return fmt.Errorf("template %s:%d: to_yaml nested more than MaxCallDepth (%d) deep: %s", in.tmpl.name, line, MaxCallDepth, limitOfMarionette(""))
	}
	defer func() { in.depth-- }()
	switch x := v.(type) {
	case *rhash:
		for i, k := range x.keys {
			ks, err := in.yamlScalar(line, k)
			if err != nil {
				return err
			}
			if _, isColl := k.(*rarray); isColl || k == nil {
				return in.unsupported(line, "to_yaml of a hash key %s", inspect(k))
			}
			b.WriteString(pad(i) + ks + ":")
			if err := in.yamlValue(line, b, x.vals[i], indent+2, indent); err != nil {
				return err
			}
		}
	case *rarray:
		for i, e := range x.a {
			b.WriteString(pad(i) + "-")
			if err := in.yamlValue(line, b, e, indent+2, indent+2); err != nil {
				return err
			}
		}
	}
	return nil
}

// yamlValue writes what follows "key:" or "-": a scalar on the same line, a
// hash on the following lines (or, after "-", starting on the same line),
// a sequence likewise.
func (in *interp) yamlValue(line int, b *strings.Builder, v any, childIndent, seqIndent int) error {
	switch x := v.(type) {
	case *rhash:
		if len(x.keys) > 0 {
			if strings.HasSuffix(b.String(), "-") {
				b.WriteString(" ")
				return in.yamlBlock(line, b, x, childIndent, 0)
			}
			b.WriteString("\n")
			return in.yamlBlock(line, b, x, childIndent, childIndent)
		}
	case *rarray:
		if len(x.a) > 0 {
			if strings.HasSuffix(b.String(), "-") {
				b.WriteString(" ")
				return in.yamlBlock(line, b, x, childIndent, 0)
			}
			b.WriteString("\n")
			// Psych does not indent a sequence under a mapping key.
			return in.yamlBlock(line, b, x, seqIndent, seqIndent)
		}
	}
	s, err := in.yamlScalar(line, v)
	if err != nil {
		return err
	}
	if s != "" {
		b.WriteString(" " + s)
	}
	b.WriteString("\n")
	return nil
}
