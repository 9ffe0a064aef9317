package main

import (
	"bytes"
	"os"
	"testing"
)

// TestGeneratedFileIsCurrent regenerates the table from the installed
// Puppet, when there is one, and compares it with the committed file.
func TestGeneratedFileIsCurrent(t *testing.T) {
	const puppetDir = "/usr/lib/ruby/vendor_ruby/puppet"
	if _, err := os.Stat(puppetDir + "/type.rb"); err != nil {
		t.Skip("Puppet is not installed")
	}
	got, err := generate(puppetDir)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("../../zz_builtin.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Error("zz_builtin.go is stale; run go generate in resourcetype")
	}
}
