# A stub of puppetlabs-puppet_authorization's rule (0.4.0), written for the
# ocf site cases: the parameters ocf_puppet passes; it declares nothing (the
# real one writes a HOCON entry into puppetserver's auth.conf).
define puppet_authorization::rule (
  Optional[Any] $match_request_path = undef,
  Optional[Any] $match_request_type = undef,
  Optional[Any] $match_request_method = undef,
  Optional[Any] $allow = undef,
  Optional[Any] $deny = undef,
  Optional[Any] $allow_unauthenticated = undef,
  Optional[Any] $sort_order = undef,
  Optional[Any] $path = undef,
  Optional[Any] $ensure = undef,
) {
}
