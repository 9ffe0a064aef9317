package hiera

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/marionette-dev/marionette/value"
)

// IssueError is a Hiera error Puppet raises with an issue code; such errors
// are not wrapped in "Lookup of key ... failed" on their way out, nor as an
// error of the lookup() call.
type IssueError struct{ Msg string }

func (e *IssueError) Error() string { return e.Msg }

// RecursionError is a lookup that (indirectly) needs its own value.
type RecursionError struct{ Stack []string }

func (e *RecursionError) Error() string {
	return fmt.Sprintf("Recursive lookup detected in [%s]", strings.Join(e.Stack, ", "))
}

var (
	interpolationRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`%\{([^}]*)\}`) })
	methodCallRE    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(\w+)\((?:"([^"]+)"|'([^']+)')\)$`) })
)

// emptyInterpolations are expressions that interpolate to "" without a lookup.
var emptyInterpolations = map[string]bool{"": true, "::": true, `""`: true, "''": true, `"::"`: true, "'::'": true}

// interpolate resolves %{...} expressions in strings, recursively inside
// arrays and hashes (keys included). allowMethods permits lookup(), alias()
// and friends; hiera.yaml paths only allow plain variables.
func (s *Session) interpolate(v value.Value, allowMethods bool, c *call) (value.Value, error) {
	if !hasInterpolation(v) {
		// Most data has nothing to interpolate; values are immutable, so the
		// value itself is the answer and no copy of a collection is made.
		return v, nil
	}
	switch v := v.(type) {
	case value.String:
		if !strings.Contains(string(v), "%{") {
			return v, nil
		}
		return s.interpolateString(string(v), allowMethods, c)
	case value.Array:
		out := make(value.Array, len(v))
		for i, e := range v {
			r, err := s.interpolate(e, allowMethods, c)
			if err != nil {
				return nil, err
			}
			out[i] = r
		}
		return out, nil
	case *value.Hash:
		b := value.NewHashBuilder(v.Len())
		for i := 0; i < v.Len(); i++ {
			k, e := v.At(i)
			rk, err := s.interpolate(k, allowMethods, c)
			if err != nil {
				return nil, err
			}
			re, err := s.interpolate(e, allowMethods, c)
			if err != nil {
				return nil, err
			}
			b.Set(rk, re)
		}
		return b.Build(), nil
	}
	return v, nil
}

// hasInterpolation reports whether a string in v (keys included) has a
// %{...} expression.
func hasInterpolation(v value.Value) bool {
	switch v := v.(type) {
	case value.String:
		return strings.Contains(string(v), "%{")
	case value.Array:
		return slices.ContainsFunc(v, hasInterpolation)
	case *value.Hash:
		return slices.ContainsFunc(v.Keys(), hasInterpolation) || slices.ContainsFunc(v.Values(), hasInterpolation)
	}
	return false
}

func (s *Session) interpolateString(subject string, allowMethods bool, c *call) (value.Value, error) {
	if c.ex != nil {
		c.ex.push("interpolate", fmt.Sprintf("Interpolation on %q", subject))
	}
	defer c.ex.pop()
	matches := interpolationRE().FindAllStringSubmatchIndex(subject, -1)
	var b strings.Builder
	last := 0
	for _, m := range matches {
		b.WriteString(subject[last:m[0]])
		last = m[1]
		expr := strings.TrimSpace(subject[m[2]:m[3]])
		if emptyInterpolations[expr] {
			continue
		}
		method, key := "scope", expr
		if mm := methodCallRE().FindStringSubmatch(expr); mm != nil {
			if !allowMethods {
				return nil, &IssueError{"Interpolation using method syntax is not allowed in this context"}
			}
			method, key = mm[1], mm[2]
			if key == "" {
				key = mm[3]
			}
		}
		var v value.Value
		var err error
		switch method {
		case "alias":
			if subject[m[0]:m[1]] != subject {
				return nil, &IssueError{"'alias' interpolation is only permitted if the expression is equal to the entire string"}
			}
			return s.interpolationLookup(key, c)
		case "lookup", "hiera":
			v, err = s.interpolationLookup(key, c)
		case "scope":
			v, err = s.scopeLookup(key, subject, c)
		case "literal":
			v = value.String(key)
		default:
			return nil, &IssueError{fmt.Sprintf("Unknown interpolation method '%s'", method)}
		}
		if err != nil {
			return nil, err
		}
		name := key
		if method == "scope" {
			name = "scope:" + key
		}
		if err := s.push(name); err != nil {
			return nil, err
		}
		v, err = s.interpolate(v, allowMethods, c)
		s.pop()
		if err != nil {
			return nil, err
		}
		if err := value.CheckSize(v, MaxInterpolationSize, "Hiera interpolation"); err != nil {
			return nil, err
		}
		b.WriteString(value.RubyString(v)) // Ruby's to_s: arrays and hashes in inspect form
		if b.Len() > MaxInterpolationSize {
			return nil, &IssueError{fmt.Sprintf("Interpolation on %q gives a string larger than MaxInterpolationSize (%d MiB, a fixed limit of marionette)", subject, MaxInterpolationSize>>20)}
		}
	}
	b.WriteString(subject[last:])
	return value.String(b.String()), nil
}

// MaxInterpolationSize bounds the string one interpolation builds: each
// %{lookup('k')} may double it (`marionette help limits` lists it).
const MaxInterpolationSize = 16 << 20

// interpolationLookup is %{lookup('k')}: a full lookup with ” as default.
func (s *Session) interpolationLookup(key string, c *call) (value.Value, error) {
	v, found, err := s.searchAndMerge(key, nil, c)
	if err != nil {
		return nil, err
	}
	if !found {
		return value.String(""), nil
	}
	return v, nil
}

// scopeLookup is %{var} / %{scope('var')}: a variable, dotted keys digging
// into hashes and arrays. A missing variable or key gives undef.
func (s *Session) scopeLookup(key, subject string, c *call) (value.Value, error) {
	segments, err := splitKey(key)
	if err != nil {
		return nil, fmt.Errorf("%s in string: %s", err.Error(), subject)
	}
	root := fmt.Sprint(segments[0])
	c.ex.push("scope", "Global Scope")
	var v value.Value
	var ok bool
	if fact, isString := segmentString(segments); (root == "facts" || root == "::facts") && isString && c.ex == nil {
		// facts.os.family reads the fact os, not every fact (an
		// explanation shows $facts whole, as Puppet's does).
		v, ok = c.variable(s, factsPrefix+fact)
		segments = segments[1:]
		if !ok {
			// A fact that is missing: undef, as digging into $facts gives.
			return value.Undef, nil
		}
	} else {
		v, ok = c.variable(s, root)
	}
	if ok {
		if c.ex != nil {
			c.ex.add("found", fmt.Sprintf("Found key: %q value: %s", root, explainValue(v)), v)
		}
	} else {
		if c.ex != nil {
			c.ex.add("not_found", fmt.Sprintf("No such key: %q", root), nil)
		}
	}
	c.ex.pop()
	if !ok || value.IsUndef(v) {
		return value.Undef, nil
	}
	v, found, err := dig(key, segments[1:], v)
	if err != nil {
		return nil, err
	}
	if !found {
		return value.Undef, nil
	}
	return v, nil
}

// segmentString returns the second segment of a dotted key when there is
// one and it is a string (a key of $facts).
func segmentString(segments []any) (string, bool) {
	if len(segments) < 2 {
		return "", false
	}
	s, ok := segments[1].(string)
	return s, ok
}

// dig follows key segments into a value (Puppet's sub_lookup).
func dig(key string, segments []any, v value.Value) (value.Value, bool, error) {
	for _, seg := range segments {
		if value.IsUndef(v) {
			return nil, false, nil
		}
		if i, isInt := seg.(int64); isInt {
			if a, ok := v.(value.Array); ok {
				if i < 0 || i >= int64(len(a)) {
					return nil, false, nil
				}
				v = a[i]
				continue
			}
		}
		h, ok := v.(*value.Hash)
		if !ok {
			return nil, false, fmt.Errorf("Data Provider type mismatch: Got %s when a hash-like object was expected to access value using '%v' from key '%s'", value.RubyClass(v), seg, key)
		}
		var k value.Value = value.String(fmt.Sprint(seg))
		if i, isInt := seg.(int64); isInt {
			k = value.Integer(i)
		}
		e, found := h.Get(k)
		if !found {
			return nil, false, nil
		}
		v = e
	}
	return v, true, nil
}

// splitKey splits a dotted key into segments; quoted segments keep their dots
// and unquoted all-digit segments are integers (array indexes).
func splitKey(key string) ([]any, error) {
	if !strings.ContainsAny(key, `'".`) {
		return []any{key}, nil
	}
	syntaxErr := fmt.Errorf("Syntax error")
	var out []any
	i := 0
	for {
		// One segment: optional spaces, a quoted string, optional spaces; or an
		// unquoted run.
		j := i
		for j < len(key) && key[j] == ' ' {
			j++
		}
		if j < len(key) && (key[j] == '"' || key[j] == '\'') {
			q := key[j]
			end := strings.IndexByte(key[j+1:], q)
			if end <= 0 {
				return nil, syntaxErr
			}
			out = append(out, key[j+1:j+1+end])
			i = j + 1 + end + 1
			for i < len(key) && key[i] == ' ' {
				i++
			}
		} else {
			end := i
			for end < len(key) && !strings.ContainsRune(`'".`, rune(key[end])) {
				end++
			}
			seg := strings.TrimSpace(key[i:end])
			if end == i {
				return nil, syntaxErr
			}
			if n, err := strconv.ParseInt(strings.TrimPrefix(seg, "+"), 10, 64); err == nil && isIntSegment(seg) {
				out = append(out, n)
			} else {
				out = append(out, seg)
			}
			i = end
		}
		if i == len(key) {
			break
		}
		if key[i] != '.' {
			return nil, syntaxErr
		}
		i++
		if i == len(key) {
			return nil, syntaxErr
		}
	}
	if _, ok := out[0].(string); !ok {
		out[0] = fmt.Sprint(out[0])
	}
	return out, nil
}

func isIntSegment(s string) bool {
	s = strings.TrimLeft(s, "+-")
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
