package value

import (
	"encoding/base64"
	"strconv"
	"strings"
	"time"
)

// Timestamp is a Puppet Timestamp: a point in time, kept in UTC with
// nanosecond precision.
type Timestamp struct{ T time.Time }

// Timespan is a Puppet Timespan: a signed duration in nanoseconds.
type Timespan struct{ D time.Duration }

// Binary is a Puppet Binary: a sequence of bytes.
type Binary struct{ Data []byte }

// Deferred is a Puppet Deferred: a function call the agent makes when it
// applies the catalog. Args is nil when the call has no argument array.
type Deferred struct {
	Name string
	Args Array
}

func (*Timestamp) isValue() {}
func (*Timespan) isValue()  {}
func (*Binary) isValue()    {}
func (*Deferred) isValue()  {}

// String is Puppet's default string form of a Timestamp:
// "2020-01-01T00:00:00.000000000 UTC".
func (t *Timestamp) String() string {
	return t.T.UTC().Format("2006-01-02T15:04:05.000000000") + " UTC"
}

// String is Puppet's default string form of a Timespan, "D-HH:MM:SS.F".
func (t *Timespan) String() string {
	d := t.D
	var b strings.Builder
	if d < 0 {
		b.WriteByte('-')
		d = -d
	}
	ns := int64(d)
	sec := ns / 1e9
	// Puppet's %-N drops the trailing zeros of the nine-digit fraction and
	// then, as it prints the rest as a number, its leading zeros too
	// (0.005006007 s is ".5006007").
	f := ns % 1e9
	for f != 0 && f%10 == 0 {
		f /= 10
	}
	frac := strconv.FormatInt(f, 10)
	b.WriteString(strconv.FormatInt(sec/86400, 10))
	b.WriteByte('-')
	for i, n := range []int64{sec / 3600 % 24, sec / 60 % 60, sec % 60} {
		if i > 0 {
			b.WriteByte(':')
		}
		if n < 10 {
			b.WriteByte('0')
		}
		b.WriteString(strconv.FormatInt(n, 10))
	}
	b.WriteByte('.')
	b.WriteString(frac)
	return b.String()
}

// String is a Binary's string form: its bytes in strict Base64.
func (b *Binary) String() string { return base64.StdEncoding.EncodeToString(b.Data) }

// String is a Deferred's string form, as Puppet writes it into a catalog
// that is not rich data: Deferred({'name' => 'f', 'arguments' => [...]}).
func (d *Deferred) String() string {
	var b strings.Builder
	b.WriteString("Deferred({'name' => ")
	writeLiteral(&b, String(d.Name))
	if d.Args != nil {
		b.WriteString(", 'arguments' => ")
		writeLiteral(&b, d.Args)
	}
	b.WriteString("})")
	return b.String()
}

// richEqual is == for the rich data values; ok is false when a is none.
func richEqual(a, b Value) (eq, ok bool) {
	switch a := a.(type) {
	case *Timestamp:
		bt, isT := b.(*Timestamp)
		return isT && a.T.Equal(bt.T), true
	case *Timespan:
		bt, isT := b.(*Timespan)
		return isT && a.D == bt.D, true
	case *Binary:
		bb, isB := b.(*Binary)
		return isB && string(a.Data) == string(bb.Data), true
	case *Deferred:
		bd, isD := b.(*Deferred)
		return isD && a.Name == bd.Name && Equal(a.Args, bd.Args) && (a.Args == nil) == (bd.Args == nil), true
	}
	return false, false
}
