package enc

import "time"

// Limits on an external node classifier run; `marionette help limits`
// lists them. Options raise them (--enc-timeout, --enc-max-output).
const (
	// DefaultTimeout is how long a classifier may run (--enc-timeout).
	DefaultTimeout = 30 * time.Second

	// DefaultMaxOutput bounds the bytes a classifier may print on stdout
	// (Options.MaxOutput); past it the run fails and the classifier is
	// killed. Its YAML is also bounded by dataformat.MaxYAMLNodes.
	DefaultMaxOutput = 16 << 20

	// maxStderr bounds the stderr kept for error messages; the rest is
	// read and dropped.
	maxStderr = 64 << 10

	// exitGrace is how long, after the classifier exits, its output pipes
	// are read for what it wrote before exiting.
	exitGrace = 200 * time.Millisecond
)
