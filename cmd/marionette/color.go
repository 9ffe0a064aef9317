package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"

	"github.com/marionette-dev/marionette/fleet"
)

// colorMode is the --color setting.
type colorMode int

const (
	colorAuto colorMode = iota
	colorAlways
	colorNever
)

// colorFlag removes the global --color flag from args (before any "--")
// and returns its setting. Besides auto, always and never it takes
// Puppet's values: true and ansi (always), false (never).
func colorFlag(args []string) ([]string, colorMode, error) {
	mode := colorAuto
	out := make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			out = append(out, args[i:]...)
			break
		}
		name, val, hasVal := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") || name != "color" {
			out = append(out, a)
			continue
		}
		if !hasVal {
			val = "always"
			if i+1 < len(args) {
				if _, err := parseColor(args[i+1]); err == nil {
					val = args[i+1]
					i++
				}
			}
		}
		m, err := parseColor(val)
		if err != nil {
			return nil, 0, err
		}
		mode = m
	}
	return out, mode, nil
}

func parseColor(v string) (colorMode, error) {
	switch v {
	case "auto":
		return colorAuto, nil
	case "always", "true", "ansi":
		return colorAlways, nil
	case "never", "false":
		return colorNever, nil
	}
	return 0, fmt.Errorf("invalid --color value %q: want auto, always or never", v)
}

// terminal is a writer that knows whether it is a terminal; tests use it
// to stand in for one.
type terminal interface{ IsTerminal() bool }

// isTerminal reports whether w writes to a terminal.
func isTerminal(w io.Writer) bool {
	switch w := w.(type) {
	case terminal:
		return w.IsTerminal()
	case *os.File:
		return fleet.IsTerminal(w)
	}
	return false
}

// ANSI colours of Puppet's console log: bold red errors, bold yellow
// warnings.
const (
	ansiRed    = "\x1b[1;31m"
	ansiYellow = "\x1b[1;33m"
	ansiReset  = "\x1b[0m"
)

// colorWriter colours whole "Error: " lines red and "Warning: " lines
// yellow, as Puppet's console does. It knows nothing of what writes the
// lines, so any error renderer composes with it. Writes are line-buffered
// while colouring; Flush writes a last unterminated line. It is safe for
// concurrent use.
type colorWriter struct {
	w       io.Writer
	enabled bool
	tty     bool
	// mode is the --color setting, for commands that colour stdout.
	mode colorMode

	mu  sync.Mutex
	buf []byte
}

// newColorWriter wraps w. getenv reads NO_COLOR (https://no-color.org),
// which turns colours off under --color=auto only.
func newColorWriter(w io.Writer, mode colorMode, getenv func(string) string) *colorWriter {
	tty := isTerminal(w)
	enabled := mode == colorAlways || mode == colorAuto && tty && getenv("NO_COLOR") == ""
	return &colorWriter{w: w, enabled: enabled, tty: tty, mode: mode}
}

// IsTerminal reports whether the wrapped writer is a terminal.
func (c *colorWriter) IsTerminal() bool { return c.tty }

func (c *colorWriter) Write(p []byte) (int, error) {
	if !c.enabled {
		return c.w.Write(p)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.buf = append(c.buf, p...)
	var out bytes.Buffer
	for {
		// A carriage return ends a line too: progress lines redraw in place.
		i := bytes.IndexAny(c.buf, "\r\n")
		if i < 0 {
			break
		}
		colorLine(&out, c.buf[:i])
		out.WriteByte(c.buf[i])
		c.buf = c.buf[i+1:]
	}
	if out.Len() > 0 {
		if _, err := c.w.Write(out.Bytes()); err != nil {
			return 0, err
		}
	}
	return len(p), nil
}

// Flush writes what is left of an unterminated line.
func (c *colorWriter) Flush() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.buf) > 0 {
		var out bytes.Buffer
		colorLine(&out, c.buf)
		c.w.Write(out.Bytes())
		c.buf = nil
	}
}

func colorLine(out *bytes.Buffer, line []byte) {
	var color string
	switch {
	case bytes.HasPrefix(line, []byte("Error: ")):
		color = ansiRed
	case bytes.HasPrefix(line, []byte("Warning: ")):
		color = ansiYellow
	default:
		out.Write(line)
		return
	}
	out.WriteString(color)
	out.Write(line)
	out.WriteString(ansiReset)
}
