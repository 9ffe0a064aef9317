# A stub of the `sysctl` resource type the ocf site declares, written for
# these cases. Upstream two Puppetfile modules define it:
# herculesteam-augeasproviders_sysctl (a Ruby type, which Puppet prefers) and
# thias-sysctl (a defined type); neither is in ../forge, and Debian's
# puppet-module-sysctl is duritong's, whose `sysctl` has no `value`. This stub
# accepts the interface the site uses and declares nothing.
define sysctl (
  Optional[Any] $ensure = undef,
  Optional[Any] $value = undef,
  Optional[Any] $comment = undef,
  Optional[Any] $target = undef,
  Optional[Any] $persist = undef,
  Optional[Any] $apply = undef,
) {
}
