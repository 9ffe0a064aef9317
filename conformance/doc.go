// Package conformance holds marionette to real Puppet 7.23.
//
// Each case under testdata/conformance is a small Puppet code base plus the
// catalog (or error) that real Puppet produced for it. The test in this
// package compiles every case with marionette (in process, through package
// site, as `marionette compile` does), normalizes the catalog the way
// the oracle's normalize script does, and reports the differences resource by
// resource. testdata/conformance/README.md describes the case format, the
// pending list and the flags (-update, -oracle-sample, -apply-check).
package conformance
