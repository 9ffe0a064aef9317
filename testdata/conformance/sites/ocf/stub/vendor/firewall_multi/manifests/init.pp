# A stub of alexharvey-firewall_multi (6.0.0), written for these cases: the
# real module expands arrays of sources, destinations, protocols, ICMP types
# and providers into one `firewall` resource each. This stub only accepts the
# parameters the ocf site passes (as Optional[Any]) and declares nothing, so
# each firewall_multi resource stays in the catalog with its parameters as
# the site wrote them.
define firewall_multi (
  Optional[Any] $ensure = undef,
  Optional[Any] $chain = undef,
  Optional[Any] $table = undef,
  Optional[Any] $proto = undef,
  Optional[Any] $action = undef,
  Optional[Any] $jump = undef,
  Optional[Any] $icmp = undef,
  Optional[Any] $provider = undef,
  Optional[Any] $source = undef,
  Optional[Any] $destination = undef,
  Optional[Any] $src_range = undef,
  Optional[Any] $dst_range = undef,
  Optional[Any] $sport = undef,
  Optional[Any] $dport = undef,
  Optional[Any] $state = undef,
  Optional[Any] $ctstate = undef,
  Optional[Any] $iniface = undef,
  Optional[Any] $outiface = undef,
  Optional[Any] $uid = undef,
  Optional[Any] $gid = undef,
  Optional[Any] $log_level = undef,
  Optional[Any] $log_prefix = undef,
  Optional[Any] $log_uid = undef,
) {
}
