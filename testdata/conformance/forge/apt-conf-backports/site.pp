include apt
apt::conf { 'unauth':
  priority => 99,
  content  => 'APT::Get::AllowUnauthenticated 1;',
}
class { 'apt::backports':
  pin => 500,
}
