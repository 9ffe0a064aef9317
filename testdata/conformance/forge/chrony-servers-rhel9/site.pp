class { 'chrony':
  servers    => ['ntp1.example.com', 'ntp2.example.com'],
  pools      => { 'pool.ntp.org' => ['iburst', 'maxsources 3'] },
  queryhosts => ['10.0.0.0/8'],
}
