package functions

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/marionette-dev/marionette/value"
)

// strftime formats a Timestamp (Ruby's strftime directives, in UTC unless
// a timezone is given) or a Timespan (%D %H %M %S %L %N, the first unit
// counting the whole span). The legacy form strftime(format, timezone)
// formats the current time and is deprecated, as in Puppet.
func addStrftime(t Table) {
	t["strftime"] = Dispatch("strftime",
		Fixed(strftimeSpan, P("time_object", value.TimespanType), P("format", tString)),
		Signature{Params: []Param{P("time_object", value.TimestampType), P("format", tString), P("timezone", tString)}, Required: 2, Impl: strftimeStamp},
		Signature{Params: []Param{P("format", tString), P("timezone", tString)}, Required: 1, Impl: strftimeLegacy},
	)
}

func strftimeStamp(c *Ctx, args []value.Value) (value.Value, error) {
	ts := args[0].(*value.Timestamp).T
	var zone value.Value
	if len(args) > 2 {
		zone = args[2]
	}
	loc, err := timezone(zone)
	if err != nil {
		return nil, err
	}
	return value.String(formatTime(ts.In(loc), string(args[1].(value.String)))), nil
}

func strftimeLegacy(c *Ctx, args []value.Value) (value.Value, error) {
	c.Log(Warning, "The argument signature (String format, [String timezone]) is deprecated for #strftime. See #strftime documentation and Timespan() function for more info")
	var zone value.Value
	if len(args) > 1 {
		zone = args[1]
	}
	loc, err := timezone(zone)
	if err != nil {
		return nil, err
	}
	NoteUntracked(c, "the time of day (strftime)")
	return value.String(formatTime(time.Now().In(loc), string(args[0].(value.String)))), nil
}

// timezone is the location a timezone argument names, as Puppet reads it
// (Ruby's DateTime._strptime with %z): UTC when absent, the process's zone
// for "current", an offset (+01:00, -0500, +1) or a zone abbreviation with
// its standard offset. Zone names (Europe/Stockholm) are illegal.
func timezone(v value.Value) (*time.Location, error) {
	s, _ := v.(value.String)
	name := string(s)
	switch {
	case name == "":
		return time.UTC, nil
	case strings.EqualFold(name, "current"):
		return time.Local, nil
	case name[0] == '+' || name[0] == '-':
		if off, ok := parseOffset(name); ok {
			return time.FixedZone("", off), nil
		}
	default:
		if off, ok := zoneAbbreviations[strings.ToLower(name)]; ok {
			if off == 0 && strings.EqualFold(name, "UTC") {
				return time.UTC, nil
			}
			return time.FixedZone("", off), nil
		}
	}
	return nil, fmt.Errorf("Illegal timezone '%s'", s)
}

// parseOffset reads +HH:MM, +HHMM, +HH or +H as seconds east of UTC.
func parseOffset(s string) (int, bool) {
	sign := 1
	if s[0] == '-' {
		sign = -1
	}
	h, m := s[1:], "0"
	if i := strings.IndexByte(h, ':'); i >= 0 {
		h, m = h[:i], h[i+1:]
	} else if len(h) == 4 {
		h, m = h[:2], h[2:]
	}
	hn, err1 := strconv.Atoi(h)
	mn, err2 := strconv.Atoi(m)
	if err1 != nil || err2 != nil || len(h) == 0 || len(h) > 2 || hn > 23 || mn > 59 {
		return 0, false
	}
	return sign * (hn*3600 + mn*60), true
}

// zoneAbbreviations are the zone abbreviations Ruby's date library knows,
// with their offsets in seconds (standard time and daylight time are
// separate abbreviations, so none follows the calendar).
var zoneAbbreviations = map[string]int{
	"utc": 0, "ut": 0, "gmt": 0, "z": 0, "wet": 0,
	"est": -5 * 3600, "edt": -4 * 3600, "cst": -6 * 3600, "cdt": -5 * 3600,
	"mst": -7 * 3600, "mdt": -6 * 3600, "pst": -8 * 3600, "pdt": -7 * 3600,
	"ast": -4 * 3600, "adt": -3 * 3600, "akst": -9 * 3600, "akdt": -8 * 3600,
	"hst": -10 * 3600, "nst": -(3*3600 + 1800), "ndt": -(2*3600 + 1800),
	"bst": 3600, "cet": 3600, "cest": 2 * 3600, "met": 3600, "mest": 2 * 3600,
	"mez": 3600, "mesz": 2 * 3600, "west": 3600, "eet": 2 * 3600, "eest": 3 * 3600,
	"msk": 3 * 3600, "sast": 2 * 3600, "ist": 5*3600 + 1800, "hkt": 8 * 3600,
	"sgt": 8 * 3600, "awst": 8 * 3600, "jst": 9 * 3600, "kst": 9 * 3600,
	"acst": 9*3600 + 1800, "aest": 10 * 3600, "aedt": 11 * 3600,
	"nzst": 12 * 3600, "nzdt": 13 * 3600,
	// Military zones: A-I and K-M east, N-Y west.
	"a": 1 * 3600, "b": 2 * 3600, "c": 3 * 3600, "d": 4 * 3600, "e": 5 * 3600,
	"f": 6 * 3600, "g": 7 * 3600, "h": 8 * 3600, "i": 9 * 3600, "k": 10 * 3600,
	"l": 11 * 3600, "m": 12 * 3600, "n": -1 * 3600, "o": -2 * 3600, "p": -3 * 3600,
	"q": -4 * 3600, "r": -5 * 3600, "s": -6 * 3600, "t": -7 * 3600, "u": -8 * 3600,
	"v": -9 * 3600, "w": -10 * 3600, "x": -11 * 3600, "y": -12 * 3600,
}

// strftimeSpec is one parsed directive: its flags, width and conversion.
type strftimeSpec struct {
	flags  string
	width  int // -1 when not given
	colons int
	conv   byte
}

// scanFormat calls lit for literal text and dir for each directive of
// format, Ruby's way: an unknown or unfinished directive is literal text.
func scanFormat(format string, known func(byte) bool, lit func(string), dir func(strftimeSpec)) {
	for i := 0; i < len(format); {
		j := strings.IndexByte(format[i:], '%')
		if j < 0 {
			lit(format[i:])
			return
		}
		lit(format[i : i+j])
		i += j
		k := i + 1
		sp := strftimeSpec{width: -1}
		for k < len(format) && strings.IndexByte("-_0^#", format[k]) >= 0 {
			sp.flags += format[k : k+1]
			k++
		}
		w := k
		for k < len(format) && format[k] >= '0' && format[k] <= '9' {
			k++
		}
		if k > w {
			sp.width, _ = strconv.Atoi(format[w:k])
		}
		for k < len(format) && format[k] == ':' && sp.colons < 3 {
			sp.colons++
			k++
		}
		if k >= len(format) || !known(format[k]) {
			end := min(k+1, len(format))
			lit(format[i:end])
			i = end
			continue
		}
		sp.conv = format[k]
		dir(sp)
		i = k + 1
	}
}

// pad formats a number or text as a directive's flags and width say:
// def is the default padding ('0' or ' ', 0 for none) and defWidth the
// default width.
func (sp strftimeSpec) pad(s string, def byte, defWidth int) string {
	width := defWidth
	if sp.width >= 0 {
		width = sp.width
	}
	padc := def
	switch {
	case strings.Contains(sp.flags, "-"):
		padc = 0
	case strings.Contains(sp.flags, "_"):
		padc = ' '
	case strings.Contains(sp.flags, "0"):
		padc = '0'
	}
	if strings.Contains(sp.flags, "^") || strings.Contains(sp.flags, "#") {
		// Ruby's # flag upcases, but for %p, which it downcases.
		s = strings.ToUpper(s)
	}
	if padc == 0 || len(s) >= width {
		return s
	}
	if padc == '0' && strings.HasPrefix(s, "-") {
		return "-" + strings.Repeat("0", width-len(s)) + s[1:]
	}
	return strings.Repeat(string(padc), width-len(s)) + s
}

const timeDirectives = "YCymBbhdejHkIlPpMSLNzZAauwGgVUWsntc%DxFvXTrR"

// formatTime is Ruby's Time#strftime.
func formatTime(t time.Time, format string) string {
	var b strings.Builder
	num := func(sp strftimeSpec, n int, def byte, width int) {
		b.WriteString(sp.pad(strconv.Itoa(n), def, width))
	}
	// A composite directive (%c, %F, %T, ...) is its expansion, padded.
	composite := func(sp strftimeSpec, f string) {
		b.WriteString(sp.pad(formatTime(t, f), ' ', 0))
	}
	dir := func(sp strftimeSpec) {
		switch sp.conv {
		case 'Y':
			b.WriteString(sp.pad(strconv.Itoa(t.Year()), '0', 0))
		case 'C':
			num(sp, t.Year()/100, '0', 2)
		case 'y':
			num(sp, t.Year()%100, '0', 2)
		case 'm':
			num(sp, int(t.Month()), '0', 2)
		case 'B':
			b.WriteString(sp.pad(t.Month().String(), ' ', 0))
		case 'b', 'h':
			b.WriteString(sp.pad(t.Month().String()[:3], ' ', 0))
		case 'd':
			num(sp, t.Day(), '0', 2)
		case 'e':
			num(sp, t.Day(), ' ', 2)
		case 'j':
			num(sp, t.YearDay(), '0', 3)
		case 'H':
			num(sp, t.Hour(), '0', 2)
		case 'k':
			num(sp, t.Hour(), ' ', 2)
		case 'I', 'l':
			h := t.Hour() % 12
			if h == 0 {
				h = 12
			}
			def := byte('0')
			if sp.conv == 'l' {
				def = ' '
			}
			num(sp, h, def, 2)
		case 'P', 'p':
			s := "AM"
			if t.Hour() >= 12 {
				s = "PM"
			}
			if sp.conv == 'P' || strings.Contains(sp.flags, "#") {
				s = strings.ToLower(s)
				sp.flags = strings.ReplaceAll(sp.flags, "#", "")
			}
			b.WriteString(sp.pad(s, ' ', 0))
		case 'M':
			num(sp, t.Minute(), '0', 2)
		case 'S':
			num(sp, t.Second(), '0', 2)
		case 'L', 'N':
			digits := 3
			if sp.conv == 'N' {
				digits = 9
			}
			if sp.width > 0 {
				digits = sp.width
			}
			frac := fmt.Sprintf("%09d", t.Nanosecond())
			if digits <= 9 {
				b.WriteString(frac[:digits])
			} else {
				b.WriteString(frac + strings.Repeat("0", digits-9))
			}
		case 'z':
			_, off := t.Zone()
			sign := "+"
			if off < 0 {
				sign, off = "-", -off
			}
			h, m, s := off/3600, off/60%60, off%60
			var z string
			switch sp.colons {
			case 0:
				z = fmt.Sprintf("%02d%02d", h, m)
			case 1:
				z = fmt.Sprintf("%02d:%02d", h, m)
			default:
				z = fmt.Sprintf("%02d:%02d:%02d", h, m, s)
			}
			sp.width = max(sp.width-1, -1)
			b.WriteString(sign + sp.pad(z, '0', 0))
		case 'Z':
			name, _ := t.Zone()
			b.WriteString(sp.pad(name, ' ', 0))
		case 'A':
			b.WriteString(sp.pad(t.Weekday().String(), ' ', 0))
		case 'a':
			b.WriteString(sp.pad(t.Weekday().String()[:3], ' ', 0))
		case 'u':
			wd := int(t.Weekday())
			if wd == 0 {
				wd = 7
			}
			num(sp, wd, '0', 1)
		case 'w':
			num(sp, int(t.Weekday()), '0', 1)
		case 'G':
			y, _ := t.ISOWeek()
			b.WriteString(sp.pad(strconv.Itoa(y), '0', 0))
		case 'g':
			y, _ := t.ISOWeek()
			num(sp, y%100, '0', 2)
		case 'V':
			_, w := t.ISOWeek()
			num(sp, w, '0', 2)
		case 'U':
			num(sp, (t.YearDay()+6-int(t.Weekday()))/7, '0', 2)
		case 'W':
			num(sp, (t.YearDay()+6-(int(t.Weekday())+6)%7)/7, '0', 2)
		case 's':
			b.WriteString(sp.pad(strconv.FormatInt(t.Unix(), 10), '0', 0))
		case 'n':
			b.WriteString("\n")
		case 't':
			b.WriteString("\t")
		case '%':
			b.WriteString("%")
		case 'c':
			composite(sp, "%a %b %e %H:%M:%S %Y")
		case 'D', 'x':
			composite(sp, "%m/%d/%y")
		case 'F':
			composite(sp, "%Y-%m-%d")
		case 'v':
			composite(sp, "%e-%^b-%4Y")
		case 'X', 'T':
			composite(sp, "%H:%M:%S")
		case 'r':
			composite(sp, "%I:%M:%S %p")
		case 'R':
			composite(sp, "%H:%M")
		}
	}
	scanFormat(format, func(c byte) bool { return strings.IndexByte(timeDirectives, c) >= 0 }, func(s string) { b.WriteString(s) }, dir)
	return b.String()
}

func strftimeSpan(c *Ctx, args []value.Value) (value.Value, error) {
	out, err := formatSpan(args[0].(*value.Timespan).D, string(args[1].(value.String)))
	if err != nil {
		return nil, err
	}
	return value.String(out), nil
}

// spanSegment is one directive of a Timespan format: its unit (an index
// into spanUnits), padding ('0', ' ' or 0 for none), width (-1 when not
// given), and whether it counts the whole span.
type spanSegment struct {
	literal string
	unit    int
	pad     byte
	width   int
	total   bool
}

// spanUnits are the Timespan directives from the largest unit down, with
// the nanoseconds of one unit and the default width.
var spanUnits = [...]struct {
	conv  byte
	ns    int64
	width int
}{{'D', 86400e9, 1}, {'H', 3600e9, 2}, {'M', 60e9, 2}, {'S', 1e9, 2}, {'L', 1e6, 3}, {'N', 1, 9}}

// parseSpanFormat reads a Timespan format as Puppet does: %[-_0][width]
// followed by D, H, M, S, L or N, or %%. The first directive of the
// largest unit used counts the whole span; the others what is left below
// the next larger unit.
func parseSpanFormat(format string) ([]spanSegment, error) {
	var segs []spanSegment
	largest := -1
	bad := func(start, pos int) error {
		return fmt.Errorf("Bad format specifier '%s' in '%s', at position %d", format[start:pos], format, pos)
	}
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			segs = append(segs, spanSegment{literal: format[i : i+1], unit: -1})
			continue
		}
		start := i
		seg := spanSegment{unit: -1, pad: '0', width: -1}
		i++
		if i < len(format) {
			switch format[i] {
			case '-':
				seg.pad = 0
				i++
			case '_':
				seg.pad = ' '
				i++
			case '0':
				i++
			}
		}
		for i < len(format) && format[i] >= '0' && format[i] <= '9' {
			seg.width = max(seg.width, 0)*10 + int(format[i]-'0')
			i++
		}
		if i >= len(format) {
			return nil, bad(start, len(format)-1)
		}
		if format[i] == '%' && i == start+1 {
			segs = append(segs, spanSegment{literal: "%", unit: -1})
			continue
		}
		for u, su := range spanUnits {
			if su.conv == format[i] {
				seg.unit = u
			}
		}
		if seg.unit < 0 {
			return nil, bad(start, i)
		}
		if largest < 0 || seg.unit < largest {
			largest = seg.unit
		}
		segs = append(segs, seg)
	}
	for i := range segs {
		if segs[i].unit == largest && largest >= 0 {
			segs[i].total = true
			break
		}
	}
	return segs, nil
}

// formatSpan formats a Timespan as Puppet's Timespan format does. Its
// quirks are Puppet's: %L and %N are left-justified in their width, and
// lose trailing zeros when given the - flag.
func formatSpan(d time.Duration, format string) (string, error) {
	segs, err := parseSpanFormat(format)
	if err != nil {
		return "", err
	}
	ns := int64(d)
	var b strings.Builder
	if ns < 0 {
		b.WriteByte('-')
		ns = -ns
	}
	for _, seg := range segs {
		if seg.unit < 0 {
			b.WriteString(seg.literal)
			continue
		}
		su := spanUnits[seg.unit]
		width := seg.width
		if width < 0 {
			width = su.width
		}
		var n int64
		fraction := su.conv == 'L' || su.conv == 'N'
		switch {
		case su.conv == 'N':
			n = ns
			if width < 9 {
				n /= pow10(9 - width)
				if !seg.total {
					n %= pow10(width)
				}
			} else if !seg.total {
				n %= 1e9
			}
		case seg.total || seg.unit == 0:
			n = ns / su.ns
		default:
			n = ns / su.ns % (spanUnits[seg.unit-1].ns / su.ns)
		}
		digits := strconv.FormatInt(n, 10)
		if fraction && !seg.total && seg.pad != '0' {
			if t := strings.TrimRight(digits, "0"); t != "" {
				digits = t
			} else {
				digits = "0"
			}
		}
		switch {
		case seg.pad == 0:
			b.WriteString(digits)
		case fraction:
			b.WriteString(digits)
			if len(digits) < width {
				b.WriteString(strings.Repeat(" ", width-len(digits)))
			}
		case len(digits) < width:
			b.WriteString(strings.Repeat(string(seg.pad), width-len(digits)))
			b.WriteString(digits)
		default:
			b.WriteString(digits)
		}
	}
	return b.String(), nil
}

func pow10(n int) int64 {
	p := int64(1)
	for ; n > 0; n-- {
		p *= 10
	}
	return p
}
