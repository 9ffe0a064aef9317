package diag

import (
	"errors"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/marionette-dev/marionette/source"
)

// RenderOptions say what Render shows beyond Puppet's one line. The zero
// value shows only that line, byte for byte Puppet's.
type RenderOptions struct {
	// Source returns the text of a file named in a range, or nil; when it
	// has the line, the line is shown with a caret under the column.
	Source func(filename string) *source.File
	// Verbose adds the code and the detail of the diagnostic.
	Verbose bool
}

// Render writes d as Puppet's command line prints it, "Error: MSG (file: F,
// line: L, column: C) on node N", then what o asks for (Annotate). node is
// "" for a problem that is not about a node's compile.
func (o RenderOptions) Render(w io.Writer, d *Diagnostic, node string) error {
	line := d.Severity.Label() + ": " + d.Error()
	if node != "" {
		line += " on node " + node
	}
	if _, err := io.WriteString(w, line+"\n"); err != nil {
		return err
	}
	return o.Annotate(w, d)
}

// RenderError is diag.RenderError followed, under each error, by what o
// asks for: a file's errors each with its own annotation, a lone error
// with its own (for an error that wraps others, the code and detail of the
// problem it wraps).
func (o RenderOptions) RenderError(w io.Writer, err error, node string) error {
	var l List
	several := false
	if errors.As(err, &l) {
		if errs := l.errors(); len(errs) > 1 {
			several = true
			for _, d := range errs {
				if err := o.Render(w, d, ""); err != nil {
					return err
				}
			}
			if _, err := io.WriteString(w, "Error: "+ValidationSummary(len(errs))+"\n"); err != nil {
				return err
			}
		}
	}
	line := "Error: " + err.Error()
	if node != "" {
		line += " on node " + node
	}
	if _, werr := io.WriteString(w, line+"\n"); werr != nil || several {
		// The summary line is about the file, not one place in it.
		return werr
	}
	d := *As(err)
	if issue := Coded(err); issue != nil && d.Code == "" {
		d.Code, d.Detail = issue.Code, issue.Detail
	}
	return o.Annotate(w, &d)
}

// Annotate writes what follows the one-line message of d: the source line
// with a caret under the column (underlined to the end of the range when
// the range stays on that line), and with Verbose the code and the detail:
//
//	3 |   include apahce
//	  |           ^~~~~~
//	  = UNKNOWN_CLASS: did you mean 'apache'?
func (o RenderOptions) Annotate(w io.Writer, d *Diagnostic) error {
	var b strings.Builder
	gutter := ""
	if text, ok := o.sourceLine(d.Range); ok {
		num := strconv.Itoa(d.Range.Start.Line)
		gutter = strings.Repeat(" ", len(num)+1)
		b.WriteString(" " + num + " | " + string(text) + "\n")
		b.WriteString(gutter + " | " + caret(text, d.Range) + "\n")
	}
	if o.Verbose && (d.Code != "" || d.Detail != "") {
		b.WriteString(gutter + " = ")
		b.WriteString(string(d.Code))
		if d.Code != "" && d.Detail != "" {
			b.WriteString(": ")
		}
		b.WriteString(d.Detail + "\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// sourceLine returns the text of the line r starts on, when it is known.
func (o RenderOptions) sourceLine(r Range) ([]byte, bool) {
	if o.Source == nil || r.Start.Line <= 0 || r.Start.Column <= 0 {
		return nil, false
	}
	f := o.Source(r.Start.Filename)
	if f == nil {
		return nil, false
	}
	text := f.Line(r.Start.Line)
	return text, text != nil || r.Start.Line <= f.LineCount()
}

// caret returns the marker line under text: blanks up to the range's start
// column (tabs kept, so that the caret lines up however tabs are shown),
// '^' there, and '~' under the rest of the range on this line.
func caret(text []byte, r Range) string {
	var b strings.Builder
	col := 1
	for i := 0; i < len(text) && col < r.Start.Column; col++ {
		c, size := utf8.DecodeRune(text[i:])
		if c == '\t' {
			b.WriteByte('\t')
		} else {
			b.WriteByte(' ')
		}
		i += size
	}
	b.WriteByte('^')
	end := r.End.Column
	if r.End.Line != r.Start.Line {
		end = utf8.RuneCount(text) + 1
	}
	for c := r.Start.Column + 1; c < end; c++ {
		b.WriteByte('~')
	}
	return b.String()
}
