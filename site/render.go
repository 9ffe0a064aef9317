package site

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/marionette-dev/marionette/compiler"
	"github.com/marionette-dev/marionette/diag"
	"github.com/marionette-dev/marionette/source"
)

// Run is `marionette compile NODE` without its flags: it opens the Site of
// o, reads node's facts from facts, compiles the node and writes the
// catalog's JSON to stdout, or the error to stderr, with the compile's
// warnings before either, and returns the exit status (0 or 1). The
// conformance suite runs its cases through it.
func Run(ctx context.Context, o Options, nodeName string, facts FactsSource, stdout, stderr io.Writer) int {
	if o.Log == nil {
		o.Log = LogTo(stderr)
	}
	res, err := CompileNode(ctx, o, nodeName, facts)
	return Write(stdout, stderr, res, err, nodeName)
}

// CompileNode opens a Site for one compile of node nodeName, with facts
// from src, and closes it after.
func CompileNode(ctx context.Context, o Options, nodeName string, src FactsSource) (*compiler.Result, error) {
	if src.Kind == FactsNotGiven {
		// Said before any setting is read, as the command line's mistake.
		return nil, FactsNotGivenError(nodeName)
	}
	// One compile loads its environment once: while an ENC runs, the
	// environment loads in the background, and with environment_timeout
	// 0 the compile would then check every file of it again (perf_control:
	// ~150 stats and directory reads, a millisecond).
	o.LoaderOptions.Snapshot = true
	s, err := Open(o)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	facts, err := s.Facts(ctx, src, nodeName)
	if err != nil {
		return nil, err
	}
	return s.Compile(ctx, nodeName, facts)
}

// Write renders a compile's outcome as `marionette compile` does and
// returns the exit status: the diagnostics, then the error or the catalog.
func Write(stdout, stderr io.Writer, res *compiler.Result, err error, node string) int {
	if res != nil {
		WriteDiagnostics(stderr, res.Diagnostics, "")
	}
	if err != nil {
		WriteError(stderr, err, node)
		return 1
	}
	w := bufio.NewWriter(stdout)
	if err := res.Catalog.WriteJSON(w); err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 1
	}
	if err := w.Flush(); err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 1
	}
	return 0
}

// WriteDiagnostics prints a compile's warnings and log messages as Puppet
// does; suffix, when set, follows each message (which node, which side).
func WriteDiagnostics(w io.Writer, diags diag.List, suffix string) {
	for _, d := range diags {
		fmt.Fprintf(w, "%s: %s%s\n", d.Severity.Label(), d.Error(), suffix)
	}
}

// WriteError prints a failed compile's error as Puppet does; a file with
// several validation errors gets each on its own line before the summary.
func WriteError(w io.Writer, err error, node string) {
	WriteErrorWith(w, err, node, diag.RenderOptions{})
}

// WriteErrorWith is WriteError followed by what render asks for under each
// error (the source line with a caret, the code and detail).
func WriteErrorWith(w io.Writer, err error, node string, render diag.RenderOptions) {
	var ie *InputError
	if errors.As(err, &ie) {
		node = ""
	}
	_ = render.RenderError(w, err, node)
}

// maxShownSource is the largest file whose line an error shows.
const maxShownSource = 4 << 20

// FileSource returns a diag.RenderOptions.Source that reads a file named
// in an error from disk when first asked for; a file it cannot read, or
// one larger than maxShownSource, shows no line.
func FileSource() func(filename string) *source.File {
	read := map[string]*source.File{}
	return func(filename string) *source.File {
		if f, ok := read[filename]; ok {
			return f
		}
		read[filename] = nil
		st, err := os.Stat(filename)
		if err != nil || !st.Mode().IsRegular() || st.Size() > maxShownSource {
			return nil
		}
		data, err := os.ReadFile(filename)
		if err != nil {
			return nil
		}
		read[filename] = source.NewFile(filename, data)
		return read[filename]
	}
}
