class { 'nodejs': }

nodejs::npm { 'express from the npm registry':
  ensure  => 'present',
  package => 'express',
  target  => '/opt/packages',
}

nodejs::npm { 'lodash':
  ensure          => '4.17.21',
  package         => 'lodash',
  target          => '/opt/packages',
  install_options => ['--save-dev'],
}
