package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/marionette-dev/marionette/atomicfile"
	"github.com/marionette-dev/marionette/catalog"
	"github.com/marionette-dev/marionette/dataformat"
)

// outputFlags say how and where a command prints its result: Puppet's
// --render-as, and -o/--output FILE.
type outputFlags struct {
	renderAs string
	output   string
	formats  []string
}

// addOutputFlags defines --render-as (one of formats, the first the
// default) and -o/--output on fs.
func addOutputFlags(fs *flag.FlagSet, o *outputFlags, formats ...string) {
	o.formats = formats
	fs.StringVar(&o.renderAs, "render-as", formats[0], "output format: "+strings.Join(formats, ", ")+" (pson is json, as Puppet prints it)")
	fs.StringVar(&o.output, "output", "", "write the output to `FILE` (atomically: a reader never sees half of it) instead of stdout")
	fs.StringVar(&o.output, "o", "", "short for --output")
}

// check reports an unknown --render-as format, naming the flag.
func (o *outputFlags) check() error {
	for _, f := range o.formats {
		if o.renderAs == f {
			return nil
		}
	}
	return fmt.Errorf("--render-as: unknown format %q (want %s)", o.renderAs, strings.Join(o.formats, ", "))
}

// pretty reports whether JSON should be indented: when it goes to a
// terminal, for a person to read. Puppet always prints one line; so does
// marionette into a file or a pipe, byte for byte as before.
func (o *outputFlags) pretty(stdout io.Writer) bool {
	return o.output == "" && isTerminal(stdout)
}

// write writes the output through write: to --output (a file atomically,
// a device or pipe as it is), or to stdout.
func (o *outputFlags) write(stdout io.Writer, write func(io.Writer) error) error {
	if o.output != "" {
		return atomicfile.WriteOutput(o.output, 0o644, func(w io.Writer) error {
			bw := bufio.NewWriter(w)
			if err := write(bw); err != nil {
				return err
			}
			return bw.Flush()
		})
	}
	bw := bufio.NewWriter(stdout)
	if err := write(bw); err != nil {
		return err
	}
	return bw.Flush()
}

// writeCatalog prints a catalog in format (json, pson or yaml); pretty
// indents JSON. Unindented JSON is exactly what Catalog.WriteJSON writes.
func writeCatalog(w io.Writer, cat *catalog.Catalog, format string, pretty bool) error {
	if (format == "json" || format == "pson") && !pretty {
		return cat.WriteJSON(w)
	}
	var buf bytes.Buffer
	if err := cat.WriteJSON(&buf); err != nil {
		return err
	}
	return writeJSONAs(w, buf.Bytes(), format, pretty)
}

// writeJSONAs prints a JSON document as format: json or pson (indented
// when pretty), or yaml, keeping the order of its keys.
func writeJSONAs(w io.Writer, data []byte, format string, pretty bool) error {
	if format == "yaml" {
		return writeYAML(w, data)
	}
	if !pretty {
		_, err := w.Write(data)
		return err
	}
	var out bytes.Buffer
	if err := json.Indent(&out, bytes.TrimSpace(data), "", "  "); err != nil {
		return err
	}
	out.WriteByte('\n')
	_, err := w.Write(out.Bytes())
	return err
}

// writeYAML prints a JSON document as a YAML document, as Puppet's
// --render-as yaml writes data (see dataformat.YAML).
func writeYAML(w io.Writer, data []byte) error {
	v, err := dataformat.FromJSON(data, "catalog")
	if err != nil {
		return err
	}
	text, err := dataformat.YAML(v)
	if err != nil {
		return err
	}
	_, err = io.WriteString(w, text)
	return err
}
