package functions

import (
	"cmp"
	"fmt"

	"github.com/marionette-dev/marionette/semver"
	"github.com/marionette-dev/marionette/value"
)

// BuiltinsFor returns Builtins as the given Puppet major has them: Puppet 8
// changes a few core functions (see addPuppet8); 7 and 0 mean Puppet 7.
func BuiltinsFor(major int) Table {
	t := Builtins()
	if major >= 8 {
		addPuppet8(t)
	}
	return t
}

// addPuppet8 replaces the core functions whose signatures Puppet 8.10
// changed (its lib/puppet/functions compared with 7.23's; none were added
// or removed):
//   - max and min compare SemVer, Timespan and Timestamp values (and
//     arrays of them) by version and time, where Puppet 7 compared them
//     as strings;
//   - split takes a Sensitive[String] and returns a Sensitive array;
//   - regsubst warns, once, that its encoding argument is ignored.
func addPuppet8(t Table) {
	t["max"] = minMaxTime("max", 1, t["max"])
	t["min"] = minMaxTime("min", -1, t["min"])

	sensitiveString := &value.SensitiveType{Type: tString}
	splitSensitive := func(c *Ctx, args []value.Value) (value.Value, error) {
		inner := append([]value.Value{args[0].(*value.Sensitive).Value}, args[1:]...)
		parts, err := splitImpl(c, inner)
		if err != nil {
			return nil, err
		}
		return &value.Sensitive{Value: parts}, nil
	}
	t["split"] = Dispatch("split",
		Fixed(splitImpl, P("str", tString), P("pattern", tString)),
		Fixed(splitImpl, P("str", tString), P("pattern", tRegexp)),
		Fixed(splitImpl, P("str", tString), P("pattern", &value.TypeType{Type: value.RegexpAny})),
		Fixed(splitSensitive, P("sensitive", sensitiveString), P("pattern", tString)),
		Fixed(splitSensitive, P("sensitive", sensitiveString), P("pattern", tRegexp)),
		Fixed(splitSensitive, P("sensitive", sensitiveString), P("pattern", &value.TypeType{Type: value.RegexpAny})))

	regsubst := t["regsubst"]
	t["regsubst"] = func(c *Ctx, args []value.Value) (value.Value, error) {
		if len(args) == 5 && args[4] != value.Undef {
			if _, isString := args[1].(value.String); isString {
				c.Svc().WarnOnce("regsubst_function_encoding",
					"The regsubst() function's encoding argument has been ignored since Ruby 1.9 and will be removed in a future release")
			}
		}
		return regsubst(c, args)
	}
}

// minMaxTime is Puppet 8's max (dir 1) or min (-1): SemVer, Timespan and
// Timestamp values, given as arguments or as one array without a block,
// compare by version or time; everything else goes to Puppet 7's
// function, general.
func minMaxTime(name string, dir int, general Func) Func {
	pick := func(vals []value.Value) (value.Value, error) {
		if len(vals) == 0 {
			return nil, fmt.Errorf("%s(): Wrong number of arguments need at least one", name)
		}
		best := vals[0]
		for _, v := range vals[1:] {
			if timeCompare(v, best)*dir > 0 {
				best = v
			}
		}
		return best, nil
	}
	return func(c *Ctx, args []value.Value) (value.Value, error) {
		if c.lambda() == nil {
			vals := args
			if len(args) == 1 {
				if a, ok := args[0].(value.Array); ok {
					vals = a
				}
			}
			if len(vals) > 0 && allSameTimeKind(vals) {
				return pick(vals)
			}
		}
		return general(c, args)
	}
}

// allSameTimeKind reports whether vals are all SemVers, all Timespans or
// all Timestamps.
func allSameTimeKind(vals []value.Value) bool {
	kind := orderedKind(vals[0])
	if kind == "" {
		return false
	}
	for _, v := range vals[1:] {
		if orderedKind(v) != kind {
			return false
		}
	}
	return true
}

// orderedKind names the kind of v among those Puppet 8's max and min
// order by value, "" for others.
func orderedKind(v value.Value) string {
	switch v.(type) {
	case *value.SemVer:
		return "SemVer"
	case *value.Timespan:
		return "Timespan"
	case *value.Timestamp:
		return "Timestamp"
	}
	return ""
}

// timeCompare orders two SemVers, Timespans or Timestamps.
func timeCompare(a, b value.Value) int {
	switch a := a.(type) {
	case *value.SemVer:
		return semver.Compare(a.V, b.(*value.SemVer).V)
	case *value.Timespan:
		return cmp.Compare(a.D, b.(*value.Timespan).D)
	case *value.Timestamp:
		return a.T.Compare(b.(*value.Timestamp).T)
	}
	return 0
}
