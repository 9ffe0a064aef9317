package main

import (
	"bufio"
	"bytes"
	"io"
	"os"

	"github.com/marionette-dev/marionette/atomicfile"
	"github.com/marionette-dev/marionette/catalogdiff"
	"github.com/marionette-dev/marionette/fleet"
)

// stdoutColor reports whether a report on stdout is coloured: --color
// (which run hands on through the stderr colorWriter) says always or
// never, or auto and stdout is a terminal and NO_COLOR is unset.
func stdoutColor(stdout, stderr io.Writer) bool {
	mode := colorAuto
	if cw, ok := stderr.(*colorWriter); ok {
		mode = cw.mode
	}
	switch mode {
	case colorAlways:
		return true
	case colorNever:
		return false
	}
	return isTerminal(stdout) && os.Getenv("NO_COLOR") == ""
}

// writeColored writes a text report, coloured when stdoutColor says so.
func writeColored(stdout, stderr io.Writer, write func(io.Writer) error) error {
	if !stdoutColor(stdout, stderr) {
		return write(stdout)
	}
	var buf bytes.Buffer
	if err := write(&buf); err != nil {
		return err
	}
	_, err := io.WriteString(stdout, catalogdiff.Colorize(buf.String()))
	return err
}

// writeHTMLReport writes the report's page to path, atomically.
func writeHTMLReport(path string, rep *fleet.DiffReport) error {
	return atomicfile.Write(path, 0o644, func(w io.Writer) error {
		bw := bufio.NewWriter(w)
		if err := rep.WriteHTML(bw); err != nil {
			return err
		}
		return bw.Flush()
	})
}
