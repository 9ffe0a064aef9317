// Package resourcetype knows the native resource types a manifest may
// declare: which attribute names each accepts, which of them are
// namevars, how a title maps to namevar values, and what Puppet 7.23
// derives from that for duplicate detection and for the catalog.
//
// Built-in types (those Debian's Puppet 7.23 ships: component, exec,
// file, filebucket, group, notify, package, resources, schedule,
// service, stage, tidy, user, whit) come from zz_builtin.go, which
// internal/gen writes by reading Puppet's lib/puppet/type/*.rb. Types
// of modules (host, cron, mount, ... from the *-core modules) are read
// from each module's lib/puppet/type/*.rb into a Set. Ruby is only read
// as text, never run (see internal/rubytype); a type with a provider
// directory anywhere on the module path gains the provider parameter.
//
// Behaviour confirmed on the Puppet oracle, with the exact messages, is
// listed in testdata/oracle-findings.md. In short:
//
//   - An unknown type fails with "Unknown resource type: 'x'" (prefixed
//     by "Evaluation Error: Error while evaluating a Resource
//     Statement, "); an unknown reference with "Resource type not
//     found: X". An unknown attribute fails with "no parameter named
//     'bogus'" for the first such attribute. Type names are
//     case-insensitive; name is accepted by every type.
//   - The uniqueness key is the key attributes' values sorted by
//     attribute name, from the title parsed by the type's title
//     patterns overlaid by parameters of the same name (UniquenessKey).
//     Isomorphic types (all but exec and tidy) are also filed under that
//     key (AliasKey), so file { '/tmp/a/': } and file { '/tmp/a': }
//     clash, user { 'b': name => 'a' } clashes with user { 'a': }, and
//     two packages clash only when name, provider and command all match.
//     "name => x" on a type whose namevar is another attribute (file's
//     path) does not count for the key.
//   - Titles are written to the catalog unchanged, but values parsed
//     from the title are added to the parameters when they differ from
//     it: file { '/tmp/a/': } gets path => '/tmp/a' (CatalogParameters).
//   - component is Puppet's internal type for classes: declaring
//     component { 'c': } adds an unevaluated Class[C]. It is in the
//     built-in table because Puppet knows the name; callers should treat
//     it as Puppet does rather than as an ordinary resource.
//
// Where the reader could not follow a type's source (keystone's mixins
// that add attributes, title patterns built by helper code) the Schema
// says so through Problems and ErrTitlePatternsUnknown rather than
// guessing.
package resourcetype
