# Stub (see ../init.pp): the parameters ocf_puppet::puppetserver passes, and
# the service the real class declares when it restarts the Puppet server.
class puppetdb::master::config (
  Optional[Any] $puppetdb_server = undef,
  Optional[Any] $puppetdb_port = undef,
  Optional[Any] $puppetdb_soft_write_failure = undef,
  Optional[Any] $manage_routes = undef,
  Optional[Any] $manage_storeconfigs = undef,
  Optional[Any] $strict_validation = undef,
  String $puppet_service_name = 'puppetserver',
  Boolean $restart_puppet = true,
) {
  if $restart_puppet and !defined(Service[$puppet_service_name]) {
    service { $puppet_service_name:
      ensure => running,
      enable => true,
    }
  }
}
