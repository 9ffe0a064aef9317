class { 'apache':
  default_mods  => false,
  default_vhost => false,
}
include apache::mod::ssl
include apache::mod::rewrite
include apache::mod::headers
class { 'apache::mod::status':
  requires => 'ip 127.0.0.1 ::1',
}
