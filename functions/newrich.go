package functions

import (
	"encoding/base64"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/marionette-dev/marionette/value"
)

// timestampLayouts are the forms Timestamp.new accepts from a string, in
// Puppet's order (%FT%T.%N %Z, %FT%T %Z, ..., %F); Go's layouts take an
// optional fraction after the seconds.
var timestampLayouts = []string{
	"2006-01-02T15:04:05Z07:00", "2006-01-02T15:04:05 Z07:00", "2006-01-02T15:04:05 MST",
	"2006-01-02 15:04:05Z07:00", "2006-01-02 15:04:05 Z07:00", "2006-01-02 15:04:05 MST",
	"2006-01-02 Z07:00", "2006-01-02 MST",
	"2006-01-02T15:04:05", "2006-01-02 15:04:05", "2006-01-02",
}

const timestampFormats = "%FT%T.%N %Z, %FT%T %Z, %F %T.%N %Z, %F %T %Z, %F %Z, %FT%T.%N, %FT%T, %F %T.%N, %F %T, %F"

func newTimestamp(c *Ctx, args []value.Value) (value.Value, error) {
	switch len(args) {
	case 0:
		NoteUntracked(c, "the time of day (Timestamp.new)")
		return &value.Timestamp{T: time.Now().UTC()}, nil
	case 1:
		switch a := args[0].(type) {
		case value.Integer:
			return &value.Timestamp{T: time.Unix(int64(a), 0).UTC()}, nil
		case value.Float:
			sec, frac := math.Modf(float64(a))
			return &value.Timestamp{T: time.Unix(int64(sec), int64(math.Round(frac*1e9))).UTC()}, nil
		case value.String:
			for _, l := range timestampLayouts {
				if t, err := time.Parse(l, string(a)); err == nil {
					return &value.Timestamp{T: t.UTC()}, nil
				}
			}
			return nil, fmt.Errorf("Unable to parse '%s' using any of the formats %s", a, timestampFormats)
		}
	}
	return nil, fmt.Errorf("Creation of new instance of type 'Timestamp' is not supported with these arguments")
}

// timespanPatterns are the string forms Timespan.new accepts, in Puppet's
// order (%D-%H:%M:%S.%-N, %H:%M:%S.%-N, %M:%S.%-N, %S.%-N, %D-%H:%M:%S,
// %H:%M:%S, %D-%H:%M, %S): the groups are days, hours, minutes, seconds
// and fraction, empty when the form lacks them.
var timespanPatterns = sync.OnceValue(func() []*regexp.Regexp {
	var out []*regexp.Regexp
	for _, p := range []string{
		`(\d+)-(\d+):(\d+):(\d+)\.(\d+)`, `()(\d+):(\d+):(\d+)\.(\d+)`, `()()(\d+):(\d+)\.(\d+)`, `()()()(\d+)\.(\d+)`,
		`(\d+)-(\d+):(\d+):(\d+)()`, `()(\d+):(\d+):(\d+)()`, `(\d+)-(\d+):(\d+)()()`, `()()()(\d+)()`,
	} {
		out = append(out, regexp.MustCompile(`^\s*(-?)`+p+`\s*$`))
	}
	return out
})

const timespanFormats = "%D-%H:%M:%S.%-N, %H:%M:%S.%-N, %M:%S.%-N, %S.%-N, %D-%H:%M:%S, %H:%M:%S, %D-%H:%M, %S"

var timespanUnits = []struct {
	key string
	ns  int64
}{
	{"days", 86400e9}, {"hours", 3600e9}, {"minutes", 60e9}, {"seconds", 1e9},
	{"milliseconds", 1e6}, {"microseconds", 1e3}, {"nanoseconds", 1},
}

func newTimespan(c *Ctx, args []value.Value) (value.Value, error) {
	if len(args) == 1 {
		switch a := args[0].(type) {
		case value.Integer:
			return &value.Timespan{D: time.Duration(int64(a) * 1e9)}, nil
		case value.Float:
			return &value.Timespan{D: time.Duration(math.Round(float64(a) * 1e9))}, nil
		case value.String:
			return parseTimespan(string(a))
		case *value.Hash:
			var total int64
			neg := false
			for i, k := range a.Keys() {
				name := value.ToString(k)
				v := a.Values()[i]
				if name == "negative" {
					b, ok := v.(value.Boolean)
					if !ok {
						return nil, timespanArgsError()
					}
					neg = bool(b)
					continue
				}
				n, ok := timespanUnit(name)
				if !ok {
					return nil, timespanArgsError()
				}
				switch x := v.(type) {
				case value.Integer:
					total += int64(x) * n
				case value.Float:
					total += int64(math.Round(float64(x) * float64(n)))
				default:
					return nil, timespanArgsError()
				}
			}
			if neg {
				total = -total
			}
			return &value.Timespan{D: time.Duration(total)}, nil
		}
	}
	if len(args) == 4 || len(args) == 7 {
		var total int64
		for i, a := range args {
			n, ok := a.(value.Integer)
			if !ok {
				return nil, timespanArgsError()
			}
			total += int64(n) * timespanUnits[i].ns
		}
		return &value.Timespan{D: time.Duration(total)}, nil
	}
	return nil, timespanArgsError()
}

func timespanUnit(name string) (int64, bool) {
	for _, u := range timespanUnits {
		if u.key == name {
			return u.ns, true
		}
	}
	return 0, false
}

func timespanArgsError() error {
	return fmt.Errorf("The function 'new_timespan' was called with arguments it does not accept")
}

func parseTimespan(s string) (value.Value, error) {
	for _, re := range timespanPatterns() {
		m := re.FindStringSubmatch(s)
		if m == nil {
			continue
		}
		var total int64
		for i, g := range m[2:6] {
			if g == "" {
				continue
			}
			n, err := strconv.ParseInt(g, 10, 64)
			if err != nil {
				return nil, fmt.Errorf("Unable to parse '%s' using any of the formats %s", s, timespanFormats)
			}
			total += n * timespanUnits[i].ns
		}
		if f := m[6]; f != "" {
			// The fraction's digits are a count of nanoseconds padded to
			// nine digits on the right.
			if len(f) > 9 {
				f = f[:9]
			}
			n, _ := strconv.ParseInt(f+strings.Repeat("0", 9-len(f)), 10, 64)
			total += n
		}
		if m[1] == "-" {
			total = -total
		}
		return &value.Timespan{D: time.Duration(total)}, nil
	}
	return nil, fmt.Errorf("Unable to parse '%s' using any of the formats %s", s, timespanFormats)
}

func newBinary(c *Ctx, args []value.Value) (value.Value, error) {
	if len(args) == 1 {
		if a, ok := args[0].(value.Array); ok {
			data := make([]byte, len(a))
			for i, e := range a {
				n, ok := e.(value.Integer)
				if !ok || n < 0 || n > 255 {
					return nil, fmt.Errorf("The function 'new_Binary' was called with arguments it does not accept")
				}
				data[i] = byte(n)
			}
			return &value.Binary{Data: data}, nil
		}
	}
	if len(args) < 1 || len(args) > 2 {
		return nil, fmt.Errorf("The function 'new_Binary' was called with arguments it does not accept")
	}
	s, ok := args[0].(value.String)
	if !ok {
		return nil, fmt.Errorf("The function 'new_Binary' was called with arguments it does not accept")
	}
	format := "%B"
	if len(args) == 2 {
		f, ok := args[1].(value.String)
		if !ok {
			return nil, fmt.Errorf("The function 'new_Binary' was called with arguments it does not accept")
		}
		format = string(f)
	}
	var data []byte
	var err error
	switch format {
	case "%s", "%r":
		data = []byte(s)
	case "%B":
		data, err = base64.StdEncoding.Strict().DecodeString(string(s))
	case "%b":
		// Lenient: line breaks ignored, padding optional.
		t := strings.NewReplacer("\n", "", "\r", "").Replace(string(s))
		data, err = base64.RawStdEncoding.DecodeString(strings.TrimRight(t, "="))
	case "%u":
		data, err = base64.URLEncoding.DecodeString(string(s))
		if err != nil {
			data, err = base64.RawURLEncoding.DecodeString(string(s))
		}
	default:
		return nil, fmt.Errorf("The function 'new_Binary' was called with arguments it does not accept")
	}
	if err != nil {
		return nil, fmt.Errorf("invalid base64")
	}
	return &value.Binary{Data: data}, nil
}

// deferredName is the pattern of a Deferred's function name.
var deferredName = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\A[$]?[a-z][a-z0-9_]*(?:::[a-z][a-z0-9_]*)*\z`)
})

func newDeferred(c *Ctx, args []value.Value) (value.Value, error) {
	return Dispatch("new_Deferred", Signature{
		Params:   []Param{P("name", patternType(deferredName())), P("arguments", optional(tArray))},
		Required: 1,
		Impl: func(c *Ctx, args []value.Value) (value.Value, error) {
			d := &value.Deferred{Name: string(args[0].(value.String))}
			if len(args) > 1 {
				if a, ok := args[1].(value.Array); ok {
					d.Args = a
				}
			}
			return d, nil
		},
	})(c, args)
}
