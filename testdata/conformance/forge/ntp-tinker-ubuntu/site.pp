class { 'ntp':
  servers        => ['0.ubuntu.pool.ntp.org', '1.ubuntu.pool.ntp.org'],
  iburst_enable  => true,
  tinker         => true,
  panic          => 0,
  pool           => ['pool.ntp.org'],
  service_ensure => running,
}
