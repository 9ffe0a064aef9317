package compiler

import "fmt"

// Limits the compiler puts on one compile where Puppet has none, so that
// runaway code fails instead of hanging or exhausting memory. `marionette
// help limits` lists them with the packages' own (hiera, erb, enc, syntax).
const (
	// DefaultMaxResources bounds the resources of one catalog
	// (Limits.MaxResources, --max-resources).
	DefaultMaxResources = 1_000_000

	// MaxDefineDepth bounds how deeply defined-type instances may declare
	// one another, so that a define that declares itself fails instead of
	// hanging.
	MaxDefineDepth = 1000

	// MaxLazyRounds bounds the rounds of the generator fixpoint (defined
	// types evaluated, collectors run again) before the compile gives up.
	MaxLazyRounds = 10000
)

// Limits are the bounds of one compile a caller may raise or lower; zero
// fields mean the defaults.
type Limits struct {
	// MaxResources bounds the resources of the catalog
	// (DefaultMaxResources).
	MaxResources int
	// MaxYAMLNodes bounds what one Hiera YAML data file may expand to
	// (dataformat.MaxYAMLNodes).
	MaxYAMLNodes int
	// MaxTemplateSize bounds an ERB template's output and any one string
	// it builds (erb.MaxStringSize).
	MaxTemplateSize int
	// MaxValueSize bounds how large one value may expand (string
	// conversion, comparison, flatten, templates) and the catalog's
	// parameters all together (value.DefaultMaxValueSize).
	MaxValueSize int64
	// MaxMemory, when positive, is the memory the compile's process may
	// use: the compile stops once the live heap passes three quarters of
	// it (HeapBudget), before the collector would thrash and the process
	// run out. Zero sets no bound.
	MaxMemory int64
}

// HeapBudget is the live heap past which a compile stops: three quarters
// of MaxMemory (zero when it is not set), so that the collector, working
// to keep the process under MaxMemory, still has room.
func (l Limits) HeapBudget() int64 {
	return l.MaxMemory / 4 * 3
}

// maxResources is l.MaxResources or its default.
func (l Limits) maxResources() int {
	if l.MaxResources > 0 {
		return l.MaxResources
	}
	return DefaultMaxResources
}

// tooManyResources is the error of a catalog past maxResources.
func tooManyResources(max int) error {
	return fmt.Errorf("The catalog has more than MaxResources (%d) resources (a limit of marionette; --max-resources raises it)", max)
}
