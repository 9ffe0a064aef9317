class { 'java':
  distribution => 'jre',
}
