# Stub (see ../init.pp): the parameters ocf_puppetdb passes.
class puppetdb::database::postgresql (
  Optional[Any] $listen_addresses = undef,
  Optional[Any] $manage_package_repo = undef,
  Optional[Any] $postgres_version = undef,
  Optional[Any] $database_name = undef,
  Optional[Any] $database_username = undef,
  Optional[Any] $database_password = undef,
) {
}
