# Stub (see init.pp): the parameters ocf_puppetdb passes.
class puppetdb::server (
  Optional[Any] $database_host = undef,
  Optional[Any] $java_args = undef,
  Optional[Any] $manage_firewall = undef,
  Optional[Any] $ssl_set_cert_paths = undef,
  Optional[Any] $listen_address = undef,
  Optional[Any] $ssl_listen_address = undef,
) {
}
