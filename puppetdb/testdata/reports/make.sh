#!/bin/bash
# make.sh regenerates the agent reports of TestLiveSameReportsAsPuppet:
# real Puppet 7.23 runs (puppet apply, as an agent applies a catalog) on
# files under a scratch directory, each run's last_run_report converted to
# the JSON an agent PUTs to /puppet/v3/report. Run from this directory.
set -euo pipefail
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/out" "$work/yaml/facts"
here=$(pwd)
# An agent keeps the transaction store (what corrective_change is computed
# from); puppet apply does not, unless told it runs as an agent would.
cat >"$work/agent.rb" <<'RB'
require 'puppet'
require 'puppet/transaction/persistence'
class Puppet::Transaction::Persistence
  def enabled?(catalog)
    catalog.host_config?
  end
end
RB

# run NAME MANIFEST [ARGS...] applies the manifest as node NAME.example.com.
run() {
	local name=$1 manifest=$2
	shift 2
	local node=agent-$name.example.com
	printf -- "--- !ruby/object:Puppet::Node::Facts\nname: %s\nvalues:\n  fqdn: %s\n  os:\n    family: Debian\n" "$node" "$node" >"$work/yaml/facts/$node.yaml"
	printf '%s\n' "$manifest" | sed "s|@OUT@|$work/out|g" >"$work/$name.pp"
	RUBYOPT=-r$work/agent.rb puppet apply --confdir "$work/conf" --vardir "$work/var" --logdir "$work/log" --yamldir "$work/yaml" \
		--facts_terminus yaml --certname "$node" --color false "$@" "$work/$name.pp" >&2 || true
	ruby -ryaml -rjson -rpuppet -e '
		r = YAML.unsafe_load_file(ARGV[0])
		puts JSON.pretty_generate(r.to_data_hash)
	' "$work/var/state/last_run_report.yaml" | sed "s|$work|/srv/agent|g" >"$here/$name.json"
}

# changed: a file created, a notify, an exec refreshed by the file.
run changed "file { '@OUT@/changed.txt': ensure => file, content => \"one\n\", mode => '0644' }
notify { 'hello': message => 'changed run' }
exec { 'refresh-me': command => '/bin/true', refreshonly => true, subscribe => File['@OUT@/changed.txt'] }"

# failed: an exec that fails, a file that depends on it (skipped), a
# warning from the compile.
run failed "warning('about to fail')
exec { 'fails': command => '/bin/false', logoutput => true }
file { '@OUT@/after.txt': content => 'never', require => Exec['fails'] }
notify { 'independent': }"

# noop: the whole run with --noop.
run noop "file { '@OUT@/noop.txt': content => 'would' }
notify { 'pending': message => 'noop run' }
user { 'nobody-test': ensure => absent }" --noop

# corrective: the file is set, changed behind Puppet's back, and set again.
corrective="file { '@OUT@/corrective.txt': content => \"desired\n\", tag => ['drift'] }"
run corrective "$corrective"
echo drifted >"$work/out/corrective.txt"
run corrective "$corrective"

# mixed: one resource noop by its metaparameter (noop_pending), one
# changed, one unchanged, an audited attribute, a debug loglevel notify.
touch "$work/out/present.txt"
run mixed "file { '@OUT@/present.txt': ensure => file, audit => 'mode' }
file { '@OUT@/mixed.txt': content => 'm' }
file { '@OUT@/held.txt': content => 'held', noop => true }
notify { 'quiet': loglevel => debug }
class inner { notify { 'in class': } }
include inner"
