# A stub of puppetlabs-puppetdb (7.13.0), written for the ocf site cases: the
# classes the site uses, with the parameters it passes. They declare nothing
# but the puppetserver service that master::config restarts (ocf_puppet
# notifies it). puppetdb_query is not stubbed: Puppet's PuppetDB terminus
# package ships its own, which a module cannot shadow, so the ocf_hpc cases
# run with the puppetdb_running fact false (no query).
class puppetdb {
}
