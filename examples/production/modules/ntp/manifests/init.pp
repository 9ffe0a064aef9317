# Time synchronisation. Server list from Hiera (ntp::servers) or the default.
class ntp (
  Array[String[1]] $servers = ['pool.ntp.org'],
  Enum['running', 'stopped'] $ensure = 'running',
) {
  package { 'ntp': ensure => installed }
  -> file { '/etc/ntp.conf':
    ensure  => file,
    content => epp('ntp/ntp.conf.epp', { 'servers' => $servers }),
  }
  ~> service { 'ntp': ensure => $ensure }
}
