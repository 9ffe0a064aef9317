file {
  default:
    ensure => file,
    owner  => 'root',
    mode   => '0644';
  '/etc/app.conf':
    ;
  '/etc/app.secret':
    mode => '0600';
}
