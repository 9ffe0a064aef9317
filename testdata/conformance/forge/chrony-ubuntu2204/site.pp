class { 'chrony':
  servers         => {
    'ntp1.example.com' => ['iburst', 'prefer'],
    'ntp2.example.com' => ['iburst'],
  },
  makestep_seconds => 1,
  makestep_updates => 3,
  cmdacl          => ['allow 127.0.0.1', 'deny all'],
}
