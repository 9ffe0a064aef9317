package functions

import "github.com/marionette-dev/marionette/value"

// MaxIteration bounds how many elements one iteration (each, map, times,
// an Integer as a collection...) produces; `marionette help limits` lists
// it.
const MaxIteration = maxIteration

// MaxFileSize bounds what file() reads from one file; it reads only
// regular files (`marionette help limits` lists it).
const MaxFileSize = 64 << 20

// expandingFunctions walk their arguments as if expanded (into a string,
// a flat array, JSON or YAML, or by comparing elements): shared structure
// must be measured against the compile's value size budget first.
var expandingFunctions = []string{
	"flatten", "join", "sprintf", "unique", "sort", "fail",
	"notice", "info", "warning", "err", "debug", "alert", "crit", "emerg",
	"to_json", "to_json_pretty", "to_yaml", "to_toml", "to_python", "to_ruby",
}

// GuardExpansion wraps the functions of t that expand their arguments so
// that arguments expanding past the evaluator's MaxValueSize (or nested
// past value.MaxValueDepth) fail the call before any work is done.
func GuardExpansion(t Table) {
	for _, name := range expandingFunctions {
		f, ok := t[name]
		if !ok {
			continue
		}
		t[name] = func(c *Ctx, args []value.Value) (value.Value, error) {
			if err := c.checkSize(value.Array(args), "function "+name); err != nil {
				return nil, err
			}
			return f(c, args)
		}
	}
}

// checkSize is Evaluator.CheckSize, with the default budget for a call
// made without an evaluator.
func (c *Ctx) checkSize(v value.Value, what string) error {
	if c.Eval != nil {
		return c.Eval.CheckSize(v, what)
	}
	return value.CheckSize(v, value.DefaultMaxValueSize, what)
}
