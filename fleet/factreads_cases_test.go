package fleet_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"hash/fnv"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/marionette-dev/marionette/compiler"
	"github.com/marionette-dev/marionette/conformance"
	"github.com/marionette-dev/marionette/readset"
	"github.com/marionette-dev/marionette/site"
	"github.com/marionette-dev/marionette/value"
)

var factCases = flag.Int("fact-cases", 0, "check the fact reads of one conformance case in N (0: every case; -short: one in 4)")

// TestFactReadsOfConformanceCases is the proof that a compile's record of
// the facts it read is complete, on every conformance case that compiles:
// the facts the record does not name are all changed at once to values of
// another shape (a hash for a string, a string for a hash), then all
// removed, and a fact no code names is added; each time the catalog must
// stay the same (a compile that listed the facts' names, as a template's
// instance_variables does, has only their values changed). A fact the compile read without recording it would change
// the catalog (or fail the compile). A compile that recorded reading every
// fact proves nothing and is counted.
func TestFactReadsOfConformanceCases(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", "testdata", "conformance"))
	if err != nil {
		t.Fatal(err)
	}
	cases, err := conformance.LoadCases(root, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) == 0 {
		t.Skip("no conformance cases in " + root)
	}
	every := *factCases
	if every == 0 && testing.Short() {
		every = 4
	}
	var checked, all, changedFacts, sampledOut int
	for _, c := range cases {
		if c.IsErrorCase() {
			continue
		}
		if _, err := c.ModulePath(); err != nil {
			continue // its corpus is absent (see internal/corpus)
		}
		if every > 1 {
			h := fnv.New32a()
			h.Write([]byte(c.ID))
			if h.Sum32()%uint32(every) != 0 {
				sampledOut++
				continue
			}
		}
		t.Run(c.ID, func(t *testing.T) {
			// One site for every compile of the case, as a compile
			// server keeps one: the record of a compile that finds the
			// environment's caches warm must be complete too.
			a, err := conformance.ParseCompileArgs(c.CompileArgs())
			if err != nil {
				t.Fatal(err)
			}
			a.Log = func(level, msg string) {}
			s, err := site.Open(a.Options)
			if err != nil {
				t.Skipf("the case does not compile here: %v", err)
			}
			defer s.Close()
			compile := func(adjust func(*value.Hash) *value.Hash) (any, *readset.Recorder, error) {
				return compileWithFacts(t, s, a, adjust)
			}
			if _, _, err := compile(nil); err != nil {
				t.Skipf("the case does not compile here: %v", err)
			}
			base, reads, err := compile(nil)
			if err != nil {
				t.Fatalf("the second compile fails: %v", err)
			}
			if _, _, why := reads.Reads(); why != "" {
				return // never reused: what it read cannot be followed
			}
			names, whole := reads.FactReads()
			if whole {
				all++
				return
			}
			checked++
			listed := readset.ReadsFactNames(names)
			unread := func(k value.Value) bool {
				s, ok := k.(value.String)
				return !ok || !readset.NamesFact(names, string(s))
			}
			n := 0
			for _, mutate := range []struct {
				what string
				f    func(*value.Hash) *value.Hash
			}{
				{"changing", func(h *value.Hash) *value.Hash {
					b := value.NewHashBuilder(h.Len())
					for i := 0; i < h.Len(); i++ {
						k, v := h.At(i)
						if unread(k) && !value.IsUndef(v) {
							v = otherShape(v)
							n++
						}
						b.Set(k, v)
					}
					return b.Build()
				}},
				{"removing", func(h *value.Hash) *value.Hash {
					if listed {
						return h // the compile read which facts there are
					}
					b := value.NewHashBuilder(h.Len())
					for i := 0; i < h.Len(); i++ {
						if k, v := h.At(i); !unread(k) {
							b.Set(k, v)
						}
					}
					return b.Build()
				}},
				{"adding a fact to", func(h *value.Hash) *value.Hash {
					if listed || readset.NamesFact(names, "marionette_probe") {
						return h
					}
					b := value.NewHashBuilder(h.Len() + 1)
					for i := 0; i < h.Len(); i++ {
						b.Set(h.At(i))
					}
					b.Set(value.String("marionette_probe"), value.String("probe"))
					return b.Build()
				}},
			} {
				got, _, err := compile(mutate.f)
				if err != nil || !reflect.DeepEqual(got, base) {
					t.Errorf("%s the facts the compile did not record reading (it read %v) changes the catalog (%v)", mutate.what, names, err)
				}
			}
			changedFacts += n
		})
	}
	t.Logf("%d cases checked (%d unread facts changed), %d read every fact, %d left out of the sample", checked, changedFacts, all, sampledOut)
}

// otherShape is a value unlike v in value and shape.
func otherShape(v value.Value) value.Value {
	if _, ok := v.(*value.Hash); ok {
		return value.String("changed")
	}
	return value.NewHash(value.String("changed"), value.Array{value.Integer(1)})
}

// compileWithFacts compiles a case (its parsed `marionette compile`
// arguments a) in process on site s, with its facts passed through adjust
// (when not nil), recording the reads; the catalog is JSON data without
// its UUID.
func compileWithFacts(t *testing.T, s *site.Site, a *conformance.CompileArgs, adjust func(*value.Hash) *value.Hash) (catalog any, reads *readset.Recorder, err error) {
	t.Helper()
	ctx := context.Background()
	facts, err := s.Facts(ctx, site.FactsFlag(a.Facts), a.Node)
	if err != nil {
		return nil, nil, err
	}
	if adjust != nil {
		facts = adjust(facts)
	}
	env, req, err := s.Prepare(ctx, a.Node, facts)
	if err != nil {
		return nil, nil, err
	}
	reads = readset.New()
	req.Reads = reads
	req.Now = time.Unix(1700000000, 0)
	res, err := compiler.Compile(ctx, env, req)
	if err != nil {
		return nil, reads, err
	}
	var buf bytes.Buffer
	if err := res.Catalog.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if err := json.Unmarshal(buf.Bytes(), &v); err != nil {
		t.Fatal(err)
	}
	delete(v, "catalog_uuid")
	return v, reads, nil
}
