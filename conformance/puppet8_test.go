package conformance

import (
	"slices"
	"strings"
	"testing"
)

func TestCasePuppetMajor(t *testing.T) {
	c := &Case{ID: "puppet8/x", Dir: "/cases/puppet8/x", Node: "n", Puppet: 8}
	args := c.CompileArgs()
	if i := slices.Index(args, "--puppet-version"); i < 0 || args[i+1] != "8" {
		t.Errorf("CompileArgs = %q, want --puppet-version 8", args)
	}
	o, err := ParseCompileArgs(append(args, "--strict-variables"))
	if err != nil || o.PuppetVersion != "8" || o.StrictVariables == nil || !*o.StrictVariables {
		t.Errorf("ParseCompileArgs: %v, %v", o, err)
	}
	seven := &Case{ID: "lang/x", Dir: "/cases/lang/x", Node: "n"}
	if slices.Contains(seven.CompileArgs(), "--puppet-version") || seven.PuppetMajor() != 7 {
		t.Errorf("a Puppet 7 case compiles with %q", seven.CompileArgs())
	}
	bad := &Case{ID: "p/x", Dir: t.TempDir(), Node: "n", Description: "d", Puppet: 6}
	found := false
	for _, err := range bad.Check() {
		found = found || strings.Contains(err.Error(), "puppet: 6 is not a supported Puppet major")
	}
	if !found {
		t.Errorf("Check accepts puppet: 6: %v", bad.Check())
	}
	if o, err := OracleFor("/repo", "/oracle7", seven); err != nil || o != "/oracle7" {
		t.Errorf("OracleFor(7) = %q, %v", o, err)
	}
	t.Setenv(Oracle8Env, "/x/puppet8")
	if o, err := OracleFor("/repo", "/oracle7", c); err != nil || o != "/x/puppet8" {
		t.Errorf("OracleFor(8) = %q, %v", o, err)
	}
}
