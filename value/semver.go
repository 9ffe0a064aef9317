package value

import "github.com/marionette-dev/marionette/semver"

// SemVer is a Puppet SemVer value: a semantic version.
type SemVer struct{ V semver.Version }

// SemVerRange is a Puppet SemVerRange value: a range of semantic versions.
type SemVerRange struct{ R *semver.Range }

// SemVerRangesType is SemVer[range, ...]: the versions any of the ranges
// holds. SemVer without parameters is SemVerType.
type SemVerRangesType struct{ Ranges []*semver.Range }

func (*SemVer) isValue()           {}
func (*SemVerRange) isValue()      {}
func (*SemVerRangesType) isValue() {}

// TypeName is SemVer.
func (*SemVerRangesType) TypeName() string { return "SemVer" }

// String is the version as Puppet writes it.
func (v *SemVer) String() string { return v.V.String() }

// String is the range as Puppet writes it: as it was written.
func (r *SemVerRange) String() string { return r.R.String() }

// includes reports whether the ranges of t hold v.
func (t *SemVerRangesType) includes(v semver.Version) bool {
	for _, r := range t.Ranges {
		if r.Includes(v) {
			return true
		}
	}
	return false
}

// RangeIncludes is Puppet's test of a value against a SemVerRange (=~,
// in, case): a SemVer, or a String that parses as one, in the range.
func RangeIncludes(r *SemVerRange, v Value) bool {
	switch v := v.(type) {
	case *SemVer:
		return r.R.Includes(v.V)
	case String:
		sv, err := semver.Parse(string(v))
		return err == nil && r.R.Includes(sv)
	}
	return false
}

// semverEqual is == for versions (build included) and ranges; ok is false
// when a is neither.
func semverEqual(a, b Value) (eq, ok bool) {
	switch a := a.(type) {
	case *SemVer:
		bv, isV := b.(*SemVer)
		return isV && semver.Equal(a.V, bv.V), true
	case *SemVerRange:
		br, isR := b.(*SemVerRange)
		return isR && a.R.Equal(br.R), true
	}
	return false, false
}
