package stdlib

import (
	"slices"
	"strings"
	"testing"

	"github.com/marionette-dev/marionette/eval"
	"github.com/marionette-dev/marionette/readset"
	"github.com/marionette-dev/marionette/syntax"
	"github.com/marionette-dev/marionette/value"
)

// TestFactReadsOfFunctions: the functions that read facts themselves
// record those facts (readset), not every fact.
func TestFactReadsOfFunctions(t *testing.T) {
	for _, tt := range []struct {
		src  string
		want []string
	}{
		{`fqdn_rand(100)`, []string{"networking"}},
		{`fqdn_rand_string(10)`, []string{"networking"}},
		{`stdlib::fqdn_rand_string(10)`, []string{"networking"}},
		{`fqdn_rotate([1, 2, 3])`, []string{"fqdn"}},
		{`stdlib::fqdn_rotate([1, 2, 3])`, []string{"networking"}},
		{`os_version_gte('Debian', '11')`, []string{"operatingsystem", "operatingsystemmajrelease"}},
		{`stdlib::os_version_gte('Debian', '11')`, []string{"os"}},
		{`fact('os.release.major')`, []string{"os"}},
		{`has_interface_with('ipaddress', '10.0.0.5')`, []string{"interfaces", "ipaddress"}},
		{`has_ip_address('10.0.0.5')`, []string{"interfaces"}},
		{`stdlib::has_interface_with('lo')`, []string{"networking"}},
		{`getvar('osfamily')`, []string{"osfamily"}},
	} {
		prog, err := syntax.ParseFile("test.pp", []byte(tt.src))
		if err != nil {
			t.Fatal(err)
		}
		h := newTestHost()
		if strings.HasPrefix(tt.src, "stdlib::") {
			h = newTestHost9()
		}
		ev := &eval.Evaluator{Host: h}
		top := eval.NewScope(eval.TopScope, "", nil, prog.File)
		facts := testFacts()
		top.Set("facts", facts)
		for i := range facts.Len() {
			k, v := facts.At(i)
			top.Set(string(k.(value.String)), v)
		}
		reads := readset.New()
		top.RecordFactReads(reads)
		// An error (the test facts' networking.interfaces is no hash)
		// comes after the read.
		_, _ = ev.Statements(prog.Body, top)
		names, all := reads.FactReads()
		if all {
			t.Errorf("%s: every fact recorded as read", tt.src)
			continue
		}
		for _, w := range tt.want {
			if !slices.Contains(names, w) {
				t.Errorf("%s: the record %v lacks %s", tt.src, names, w)
			}
		}
		if slices.Contains(names, "domain") {
			t.Errorf("%s: the record %v names domain, which it does not read", tt.src, names)
		}
	}
}
