class { 'java':
  distribution => 'jdk',
  version      => '17',
}
