class { 'timezone':
  timezone => 'UTC',
}
