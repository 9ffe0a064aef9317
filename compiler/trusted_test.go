package compiler

import (
	"path/filepath"
	"testing"

	"github.com/marionette-dev/marionette/environment"
	"github.com/marionette-dev/marionette/value"
)

// TestTrustedFromRequest: a compile server's TrustedInfo, not the
// clientcert fact, makes $trusted.
func TestTrustedFromRequest(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"site.pp": "notify { \"${trusted['authenticated']}|${trusted['certname']}|${trusted['hostname']}|${trusted['domain']}|${trusted['extensions']}\": }\n"})
	env, err := environment.Load(environment.Config{Name: "production", Manifest: filepath.Join(dir, "site.pp")})
	if err != nil {
		t.Fatal(err)
	}
	facts := value.NewHash(value.String("clientcert"), value.String("forged.example.com"))
	for _, tt := range []struct {
		name    string
		trusted *TrustedInfo
		want    string
	}{
		{"local", nil, "local|forged.example.com|forged|example.com|{}"},
		{"remote", &TrustedInfo{Authenticated: "remote", Certname: "web01.example.com",
			Extensions: value.NewHash(value.String("pp_role"), value.String("web"))},
			"remote|web01.example.com|web01|example.com|{pp_role => web}"},
		{"remote no domain", &TrustedInfo{Authenticated: "remote", Certname: "web01"}, "remote|web01|web01||{}"},
		{"unauthenticated", &TrustedInfo{}, "false||||{}"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cat, err := compileCatalog(env, &Request{Node: "web01.example.com", Facts: facts, Trusted: tt.trusted})
			if err != nil {
				t.Fatal(err)
			}
			if cat.Lookup(refOf("Notify", tt.want)) == nil {
				t.Errorf("want Notify[%s]; resources: %v", tt.want, titlesIn(cat.Resources))
			}
		})
	}
}
