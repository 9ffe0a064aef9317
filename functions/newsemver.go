package functions

import (
	"fmt"
	"regexp"
	"sync"

	"github.com/marionette-dev/marionette/semver"
	"github.com/marionette-dev/marionette/value"
)

// semverPatterns are the types of SemVer.new's string and qualifier
// parameters (Puppet's local types SemVerPattern and SemVerQualifier).
var semverPatterns = sync.OnceValues(func() (full, qualifier value.Type) {
	return patternType(regexp.MustCompile(`\A` + semver.Pattern + `\z`)),
		patternType(regexp.MustCompile(`\A[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*\z`))
})

// newSemVer is SemVer.new: from a version string, from major, minor, patch
// (and a prerelease and build), or from a hash of those.
func newSemVer(c *Ctx, args []value.Value) (value.Value, error) {
	full, qualifier := semverPatterns()
	positive := &value.IntegerType{Min: 0, Max: value.MaxInt}
	fromString := func(c *Ctx, args []value.Value) (value.Value, error) {
		v, err := semver.Parse(string(args[0].(value.String)))
		if err != nil {
			return nil, err
		}
		return &value.SemVer{V: v}, nil
	}
	build := func(major, minor, patch, pre, bld value.Value) value.Value {
		v := semver.Version{Major: int64(major.(value.Integer)), Minor: int64(minor.(value.Integer)), Patch: int64(patch.(value.Integer))}
		// A prerelease or build given as an argument is one identifier,
		// dots and all, as in Puppet.
		if s, ok := pre.(value.String); ok {
			v.Pre = []semver.Ident{{Str: string(s)}}
		}
		if s, ok := bld.(value.String); ok {
			v.Build = []string{string(s)}
		}
		return &value.SemVer{V: v}
	}
	fromArgs := func(c *Ctx, args []value.Value) (value.Value, error) {
		for len(args) < 5 {
			args = append(args, value.Undef)
		}
		return build(args[0], args[1], args[2], args[3], args[4]), nil
	}
	hashType := &value.StructType{Elements: []value.StructElement{
		{Name: "major", Value: positive},
		{Name: "minor", Value: positive},
		{Name: "patch", Value: positive},
		{Name: "prerelease", Optional: true, KeyType: optionalKey("prerelease"), Value: qualifier},
		{Name: "build", Optional: true, KeyType: optionalKey("build"), Value: qualifier},
	}}
	fromHash := func(c *Ctx, args []value.Value) (value.Value, error) {
		h := args[0].(*value.Hash)
		get := func(k string) value.Value {
			v, _ := h.Get(value.String(k))
			if v == nil {
				return value.Undef
			}
			return v
		}
		return build(get("major"), get("minor"), get("patch"), get("prerelease"), get("build")), nil
	}
	// A string that is no version gets Puppet's argument_mismatch message.
	if len(args) == 1 {
		if s, ok := args[0].(value.String); ok && !value.IsInstance(full, s) {
			return nil, fmt.Errorf("'new_Version' The string '%s' cannot be converted to a SemVer", s)
		}
	}
	return Dispatch("new_Version",
		Fixed(fromString, P("str", full)),
		Signature{Params: []Param{P("major", positive), P("minor", positive), P("patch", positive),
			P("prerelease", qualifier), P("build", qualifier)}, Required: 3, Impl: fromArgs},
		Fixed(fromHash, P("hash_args", hashType)))(c, args)
}

// newSemVerRange is SemVerRange.new: from a range string, from a minimum
// and a maximum version (default for unbounded) and whether the maximum is
// excluded, or from a hash of those.
func newSemVerRange(c *Ctx, args []value.Value) (value.Value, error) {
	bound := variant(value.DefaultType, value.SemVerType)
	fromString := func(c *Ctx, args []value.Value) (value.Value, error) {
		r, err := semver.ParseRange(string(args[0].(value.String)))
		if err != nil {
			return nil, err
		}
		return &value.SemVerRange{R: r}, nil
	}
	between := func(min, max, exclude value.Value) value.Value {
		var lo, hi *semver.Version
		if v, ok := min.(*value.SemVer); ok {
			lo = &v.V
		}
		if v, ok := max.(*value.SemVer); ok {
			hi = &v.V
		}
		return &value.SemVerRange{R: semver.Between(lo, hi, exclude == value.True)}
	}
	fromVersions := func(c *Ctx, args []value.Value) (value.Value, error) {
		for len(args) < 3 {
			args = append(args, value.Undef)
		}
		return between(args[0], args[1], args[2]), nil
	}
	hashType := &value.StructType{Elements: []value.StructElement{
		{Name: "min", Value: bound},
		{Name: "max", Optional: true, KeyType: optionalKey("max"), Value: bound},
		{Name: "exclude_max", Optional: true, KeyType: optionalKey("exclude_max"), Value: tBoolean},
	}}
	fromHash := func(c *Ctx, args []value.Value) (value.Value, error) {
		h := args[0].(*value.Hash)
		min, _ := h.Get(value.String("min"))
		max, _ := h.Get(value.String("max"))
		exclude, _ := h.Get(value.String("exclude_max"))
		return between(min, max, exclude), nil
	}
	return Dispatch("new_VersionRange",
		Fixed(fromString, P("str", &value.StringType{Min: 1, Max: value.MaxInt})),
		Signature{Params: []Param{P("min", bound), P("max", bound), P("exclude_max", tBoolean)}, Required: 2, Impl: fromVersions},
		Fixed(fromHash, P("hash_args", hashType)))(c, args)
}
