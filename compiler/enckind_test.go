package compiler

import (
	"context"
	"testing"

	"github.com/marionette-dev/marionette/catalog"
	"github.com/marionette-dev/marionette/value"
)

// TestENCClassKind: Puppet 7.23 records a class the ENC declares with
// parameters as kind "unknown", like an included class (the ENC's classes
// are declared outside the evaluator); only class { 'x': } in the code is
// kind "class". Measured with puppet catalog compile and with puppetserver
// 7.9.5 (scripts/site-migration-e2e); the conformance suite drops kind.
func TestENCClassKind(t *testing.T) {
	env := runawayEnv(t, "class fromenc($p) { }\nclass inline { }\nclass included { }\nnode default { class { 'inline': }\n include included }\n")
	res, err := Compile(context.Background(), env, &Request{Node: "n1", Classes: []ENCClass{{Name: "fromenc", Params: value.NewHash(value.String("p"), value.String("v"))}}})
	if err != nil {
		t.Fatal(err)
	}
	for title, want := range map[string]catalog.Kind{"Fromenc": catalog.KindClass, "Inline": catalog.KindResourceLikeClass, "Included": catalog.KindClass} {
		r := res.Catalog.Lookup(catalog.Ref{Type: "Class", Title: title})
		if r == nil {
			t.Fatalf("no Class[%s]", title)
		}
		if r.Kind != want {
			t.Errorf("Class[%s] kind %q, want %q", title, r.Kind, want)
		}
	}
}
