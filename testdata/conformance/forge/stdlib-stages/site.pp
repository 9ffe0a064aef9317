include stdlib::stages

class pre_things {
  notify { 'in setup stage': }
}

class { 'pre_things':
  stage => 'setup',
}

class { 'ntp':
  stage => 'main',
}
