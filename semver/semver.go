// Package semver implements the versions and version ranges behind Puppet's
// SemVer and SemVerRange types, with the rules of Puppet's semantic_puppet
// library: Semantic Versioning 2.0 precedence, npm-style ranges (x-ranges,
// ~, ^, hyphen ranges, intersections and ||), and the npm rule that a
// prerelease version satisfies a range only when one of the range's bounds
// is a prerelease of the same major.minor.patch.
package semver

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// Ident is one dot-separated identifier of a prerelease.
type Ident struct {
	Num   int64
	Str   string
	IsNum bool
}

func (id Ident) String() string {
	if id.IsNum {
		return strconv.FormatInt(id.Num, 10)
	}
	return id.Str
}

// Version is a semantic version. Pre is nil for a stable version; Build
// takes no part in precedence but does in equality, as in Puppet.
type Version struct {
	Major, Minor, Patch int64
	Pre                 []Ident
	Build               []string
}

// Stable reports whether v has no prerelease.
func (v Version) Stable() bool { return len(v.Pre) == 0 }

// String is v as Puppet writes it: 1.2.3-rc.1+build.5.
func (v Version) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d.%d.%d", v.Major, v.Minor, v.Patch)
	for i, id := range v.Pre {
		if i == 0 {
			b.WriteByte('-')
		} else {
			b.WriteByte('.')
		}
		b.WriteString(id.String())
	}
	for i, s := range v.Build {
		if i == 0 {
			b.WriteByte('+')
		} else {
			b.WriteByte('.')
		}
		b.WriteString(s)
	}
	return b.String()
}

// Compare orders versions by precedence: -1, 0 or 1.
func Compare(a, b Version) int {
	for _, d := range [3][2]int64{{a.Major, b.Major}, {a.Minor, b.Minor}, {a.Patch, b.Patch}} {
		if d[0] != d[1] {
			if d[0] < d[1] {
				return -1
			}
			return 1
		}
	}
	switch {
	case a.Stable() && b.Stable():
		return 0
	case a.Stable():
		return 1
	case b.Stable():
		return -1
	}
	for i, x := range a.Pre {
		if i >= len(b.Pre) {
			return 1
		}
		if c := compareIdent(x, b.Pre[i]); c != 0 {
			return c
		}
	}
	if len(a.Pre) < len(b.Pre) {
		return -1
	}
	return 0
}

// compareIdent orders prerelease identifiers: numbers numerically and
// before words, words by bytes.
func compareIdent(x, y Ident) int {
	switch {
	case x.IsNum && y.IsNum:
		switch {
		case x.Num < y.Num:
			return -1
		case x.Num > y.Num:
			return 1
		}
		return 0
	case x.IsNum:
		return -1
	case y.IsNum:
		return 1
	}
	return strings.Compare(x.Str, y.Str)
}

// Equal reports whether a and b are the same version, build included.
func Equal(a, b Version) bool {
	if Compare(a, b) != 0 || len(a.Build) != len(b.Build) {
		return false
	}
	for i := range a.Build {
		if a.Build[i] != b.Build[i] {
			return false
		}
	}
	return true
}

const (
	numericPart = `(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)`
	qualifier   = `[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*`
)

// fullVersion is a whole version string; Pattern is its source, for the
// SemVer constructor's signature.
var fullVersion = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\A` + numericPart + `(?:-(` + qualifier + `))?(?:\+(` + qualifier + `))?\z`)
})

// Pattern is the regular expression a version string must match, as the
// signature of SemVer.new shows it.
const Pattern = numericPart + `(?:-(` + qualifier + `))?(?:\+(` + qualifier + `))?`

// ErrSyntax is the cause of a version string's parse error.
var ErrSyntax = errors.New("not a semantic version")

// Parse reads a version string.
func Parse(s string) (Version, error) {
	m := fullVersion().FindStringSubmatch(s)
	if m == nil {
		return Version{}, fmt.Errorf("Unable to parse '%s' as a semantic version identifier: %w", s, ErrSyntax)
	}
	var v Version
	var err error
	for i, p := range []*int64{&v.Major, &v.Minor, &v.Patch} {
		if *p, err = strconv.ParseInt(m[i+1], 10, 64); err != nil {
			return Version{}, fmt.Errorf("Unable to parse '%s' as a semantic version identifier: %w", s, ErrSyntax)
		}
	}
	if v.Pre, err = ParsePrerelease(m[4]); err != nil {
		return Version{}, err
	}
	v.Build = ParseBuild(m[5])
	return v, nil
}

// ParsePrerelease splits a prerelease into identifiers ("" is none).
func ParsePrerelease(s string) ([]Ident, error) {
	if s == "" {
		return nil, nil
	}
	parts := strings.Split(s, ".")
	out := make([]Ident, len(parts))
	for i, p := range parts {
		if isDigits(p) {
			if len(p) > 1 && p[0] == '0' {
				return nil, errors.New("Numeric pre-release identifiers MUST NOT contain leading zeroes")
			}
			n, err := strconv.ParseInt(p, 10, 64)
			if err != nil {
				return nil, fmt.Errorf("Unable to parse '%s' as a semantic version identifier: %w", s, ErrSyntax)
			}
			out[i] = Ident{Num: n, IsNum: true}
			continue
		}
		out[i] = Ident{Str: p}
	}
	return out, nil
}

// ParseBuild splits build metadata ("" is none).
func ParseBuild(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, ".")
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// Min is the lowest version, 0.0.0 with an empty prerelease; Max stands
// for an unbounded maximum.
var (
	minVersion = Version{Pre: []Ident{}}
	maxVersion = Version{Major: math.MaxInt64}
)

// bound is one end of an interval; an unset bound is unbounded.
type bound struct {
	set       bool
	v         Version
	exclusive bool
}

// interval is one simple range: the versions between lo and hi. all marks
// the range `*`, which also lets prereleases through.
type interval struct {
	lo, hi bound
	all    bool
}

func (r interval) contains(v Version) bool {
	if r.lo.set {
		c := Compare(v, r.lo.v)
		if c < 0 || c == 0 && r.lo.exclusive {
			return false
		}
	}
	if r.hi.set {
		c := Compare(v, r.hi.v)
		if c > 0 || c == 0 && r.hi.exclusive {
			return false
		}
	}
	return true
}

// admitsPrerelease reports whether a bound of r is a prerelease of v's
// major.minor.patch.
func (r interval) admitsPrerelease(v Version) bool {
	if r.all {
		return true
	}
	same := func(b bound) bool {
		return b.set && !b.v.Stable() && b.v.Major == v.Major && b.v.Minor == v.Minor && b.v.Patch == v.Patch
	}
	return same(r.lo) || same(r.hi)
}

// intersect is the versions both a and b hold: the tighter bound on each
// side.
func intersect(a, b interval) interval {
	if a.all {
		return b
	}
	if b.all {
		return a
	}
	out := a
	if b.lo.set {
		if !out.lo.set {
			out.lo = b.lo
		} else if c := Compare(b.lo.v, out.lo.v); c > 0 || c == 0 && b.lo.exclusive {
			out.lo = b.lo
		}
	}
	if b.hi.set {
		if !out.hi.set {
			out.hi = b.hi
		} else if c := Compare(b.hi.v, out.hi.v); c < 0 || c == 0 && b.hi.exclusive {
			out.hi = b.hi
		}
	}
	return out
}

// Range is a version range: versions that satisfy any of its intervals.
type Range struct {
	source string
	alts   []interval
}

// String is the range as it was written (or, built from two versions,
// "MIN - MAX" or ">=MIN <MAX"), as Puppet shows it.
func (r *Range) String() string { return r.source }

// Includes reports whether v satisfies r.
func (r *Range) Includes(v Version) bool {
	for _, alt := range r.alts {
		if alt.contains(v) && (v.Stable() || alt.admitsPrerelease(v)) {
			return true
		}
	}
	return false
}

// Equal reports whether a and b hold the same intervals.
func (r *Range) Equal(o *Range) bool {
	if len(r.alts) != len(o.alts) {
		return false
	}
	eqBound := func(x, y bound) bool {
		return x.set == y.set && (!x.set || x.exclusive == y.exclusive && Equal(x.v, y.v))
	}
	for i, a := range r.alts {
		b := o.alts[i]
		if a.all != b.all || !eqBound(a.lo, b.lo) || !eqBound(a.hi, b.hi) {
			return false
		}
	}
	return true
}

// Between is the range from min to max (either may be nil for unbounded),
// max excluded when excludeMax. Its string form is Puppet's, which
// names the bounds in reverse ("MAX - MIN", ">=MAX <MIN") and writes an
// absent minimum as 0.0.0- and an absent maximum as Infinity.0.0.
func Between(min, max *Version, excludeMax bool) *Range {
	lo, hi := minVersion, maxVersion
	loStr, hiStr := "0.0.0-", "Infinity.0.0"
	if min != nil {
		lo, loStr = *min, min.String()
	}
	if max != nil {
		hi, hiStr = *max, max.String()
	}
	src := hiStr + " - " + loStr
	if excludeMax {
		src = ">=" + hiStr + " <" + loStr
	}
	return &Range{source: src, alts: []interval{{
		lo: bound{set: true, v: lo},
		hi: bound{set: max != nil, v: hi, exclusive: excludeMax},
	}}}
}

// Exact is the range that holds v alone, as a SemVer value's type has it.
func Exact(v Version) *Range {
	return &Range{source: v.String() + " - " + v.String(), alts: []interval{{
		lo: bound{set: true, v: v}, hi: bound{set: true, v: v},
	}}}
}

const (
	xr      = `(?:x|X|\*|0|[1-9][0-9]*)`
	partial = xr + `(?:\.` + xr + `(?:\.` + xr + `(?:-` + qualifier + `)?(?:\+` + qualifier + `)?)?)?`
)

var (
	simpleRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\A(<=|>=|~>|~=|[<>=~^])?(` + partial + `)\z`) })
	hyphenRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\A(` + partial + `)\s+-\s+(` + partial + `)\z`) })
	// partialRe captures major, minor, patch, prerelease and build.
	partialRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\A(x|X|\*|0|[1-9][0-9]*)(?:\.(x|X|\*|0|[1-9][0-9]*)(?:\.(x|X|\*|0|[1-9][0-9]*)(?:-(` + qualifier + `))?(?:\+(` + qualifier + `))?)?)?\z`)
	})
	opSpace = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`([><=~^])(?:\s+|\s*v)`) })
	orSplit = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\s*\|\|\s*`) })
	wsSplit = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\s+`) })
)

// ParseRange reads a range: "1.x", ">=1.2.0 <2.0.0", "~1.2", "^1.2.3",
// "1.0.0 - 1.4.0", ">=1.0.0 || <0.5.0", "*".
func ParseRange(s string) (*Range, error) {
	bad := fmt.Errorf("Unparsable version range: %q", s)
	cleaned := opSpace().ReplaceAllString(s, "$1")
	var parts []string
	if cleaned != "" {
		parts = orSplit().Split(cleaned, -1)
		// As Ruby's split: trailing empty fields are dropped.
		for len(parts) > 0 && parts[len(parts)-1] == "" {
			parts = parts[:len(parts)-1]
		}
	}
	r := &Range{source: s}
	if len(parts) == 0 {
		r.alts = []interval{{all: true}}
		return r, nil
	}
	for _, part := range parts {
		if m := hyphenRe().FindStringSubmatch(part); m != nil {
			lo, err := fullOf(m[1], bad)
			if err != nil {
				return nil, err
			}
			hi, err := fullOf(m[2], bad)
			if err != nil {
				return nil, err
			}
			r.alts = append(r.alts, interval{lo: bound{set: true, v: lo}, hi: bound{set: true, v: hi}})
			continue
		}
		simples := wsSplit().Split(part, -1)
		for len(simples) > 0 && simples[len(simples)-1] == "" {
			simples = simples[:len(simples)-1]
		}
		var acc interval
		for i, simple := range simples {
			m := simpleRe().FindStringSubmatch(simple)
			if m == nil {
				return nil, bad
			}
			in, err := parseSimple(m[1], m[2], bad)
			if err != nil {
				return nil, err
			}
			if i == 0 {
				acc = in
			} else {
				acc = intersect(acc, in)
			}
		}
		if len(simples) == 0 {
			// An empty alternative ("1.0 || || 2.0") adds nothing.
			continue
		}
		r.alts = append(r.alts, acc)
	}
	return r, nil
}

// partialVersion is a version whose parts may be missing or wild (-1).
type partialVersion struct {
	major, minor, patch int64
	pre                 []Ident
	build               []string
}

func parsePartial(s string, bad error) (partialVersion, error) {
	m := partialRe().FindStringSubmatch(s)
	if m == nil {
		return partialVersion{}, bad
	}
	p := partialVersion{major: -1, minor: -1, patch: -1}
	for i, dst := range []*int64{&p.major, &p.minor, &p.patch} {
		switch m[i+1] {
		case "", "x", "X", "*":
		default:
			n, err := strconv.ParseInt(m[i+1], 10, 64)
			if err != nil || n == math.MaxInt64 {
				return partialVersion{}, bad
			}
			*dst = n
		}
	}
	var err error
	if p.pre, err = ParsePrerelease(m[4]); err != nil {
		return partialVersion{}, err
	}
	p.build = ParseBuild(m[5])
	return p, nil
}

// fullOf is a partial version with its missing parts 0.
func fullOf(s string, bad error) (Version, error) {
	p, err := parsePartial(s, bad)
	if err != nil {
		return Version{}, err
	}
	v := Version{Major: max(p.major, 0), Minor: max(p.minor, 0), Patch: max(p.patch, 0), Pre: p.pre, Build: p.build}
	return v, nil
}

func atLeast(v Version) bound { return bound{set: true, v: v} }
func below(v Version) bound   { return bound{set: true, v: v, exclusive: true} }
func ver(major, minor, patch int64) Version {
	return Version{Major: major, Minor: minor, Patch: patch}
}

// matchNothing is the empty range Puppet writes as <0.0.0.
var matchNothing = interval{hi: below(minVersion)}

func parseSimple(op, operand string, bad error) (interval, error) {
	p, err := parsePartial(operand, bad)
	if err != nil {
		return interval{}, err
	}
	full := Version{Major: p.major, Minor: p.minor, Patch: p.patch, Pre: p.pre, Build: p.build}
	switch op {
	case "~", "~>", "~=":
		return patchUpdates(p, full, true), nil
	case "^":
		if p.major == 0 {
			return patchUpdates(p, full, true), nil
		}
		switch {
		case p.major < 0:
			return interval{all: true}, nil
		case p.minor < 0:
			return interval{lo: atLeast(ver(p.major, 0, 0)), hi: below(ver(p.major+1, 0, 0))}, nil
		case p.patch < 0:
			return interval{lo: atLeast(ver(p.major, p.minor, 0)), hi: below(ver(p.major+1, 0, 0))}, nil
		}
		return interval{lo: atLeast(full), hi: below(ver(p.major+1, 0, 0))}, nil
	case ">":
		switch {
		case p.major < 0:
			return matchNothing, nil
		case p.minor < 0:
			return interval{lo: atLeast(ver(p.major+1, 0, 0))}, nil
		case p.patch < 0:
			return interval{lo: atLeast(ver(p.major, p.minor+1, 0))}, nil
		}
		return interval{lo: bound{set: true, v: full, exclusive: true}}, nil
	case ">=":
		v, _ := fullOf(operand, bad)
		return interval{lo: atLeast(v)}, nil
	case "<":
		v, _ := fullOf(operand, bad)
		return interval{hi: below(v)}, nil
	case "<=":
		switch {
		case p.major < 0:
			return interval{all: true}, nil
		case p.minor < 0:
			return interval{hi: below(ver(p.major+1, 0, 0))}, nil
		case p.patch < 0:
			return interval{hi: below(ver(p.major, p.minor+1, 0))}, nil
		}
		return interval{hi: bound{set: true, v: full}}, nil
	}
	// "=" or none: an x-range, or one exact version.
	return patchUpdates(p, full, false), nil
}

// patchUpdates is the range of a tilde (or, with tildeOrCaret false, an
// x-range): the given parts fixed, the first missing one free.
func patchUpdates(p partialVersion, full Version, tildeOrCaret bool) interval {
	switch {
	case p.major < 0:
		return interval{all: true}
	case p.minor < 0:
		return interval{lo: atLeast(ver(p.major, 0, 0)), hi: below(ver(p.major+1, 0, 0))}
	case p.patch < 0:
		return interval{lo: atLeast(ver(p.major, p.minor, 0)), hi: below(ver(p.major, p.minor+1, 0))}
	}
	if !tildeOrCaret {
		return interval{lo: atLeast(full), hi: bound{set: true, v: full}}
	}
	return interval{lo: atLeast(full), hi: below(ver(p.major, p.minor+1, 0))}
}
