package erb

import (
	"fmt"
	"testing"

	"github.com/marionette-dev/marionette/value"
)

// updScope is a mapScope whose templates' in-place changes come back
// (ruby.VariableUpdater).
type updScope struct {
	mapScope
	updated map[string]value.Value
}

func (s *updScope) UpdateVariable(name string, v value.Value) { s.updated[name] = v }

// TestUnchangedVariableIsNotConvertedAgain: a template that reads a large
// hash without changing it does not rebind it, and costs no more than
// converting it to Ruby and back once (the comparison with the original's
// own round trip is only for values that differ from the original).
func TestUnchangedVariableIsNotConvertedAgain(t *testing.T) {
	b := value.NewHashBuilder(300)
	for i := range 300 {
		b.Set(value.String(fmt.Sprintf("k%d", i)), value.Array{value.String("a"), value.String("b"), value.String("c")})
	}
	h := b.Build()
	read, err := Parse("read", []byte("<%= @h['k1'][0] %>"))
	if err != nil {
		t.Fatal(err)
	}
	change, err := Parse("change", []byte("<% @h['k1'] << 'd' %>"))
	if err != nil {
		t.Fatal(err)
	}
	s := &updScope{mapScope: mapScope{"h": h}, updated: map[string]value.Value{}}
	if out, err := read.Render(s); out != "a" || err != nil || len(s.updated) != 0 {
		t.Fatalf("read: %q, %v, updated %v", out, err, s.updated)
	}
	allocs := testing.AllocsPerRun(5, func() { read.Render(s) })
	// Converting the hash to Ruby and back is ~4,600 allocations here;
	// converting the original a second time, to compare, doubled it.
	if allocs > 6000 {
		t.Errorf("rendering a template that reads a 300-entry hash: %v allocations, want < 6000", allocs)
	}
	if _, err := change.Render(s); err != nil || len(s.updated) != 1 {
		t.Fatalf("change: %v, updated %d variables", err, len(s.updated))
	}
}
