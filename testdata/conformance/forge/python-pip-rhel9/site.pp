class { 'python':
  dev => 'present',
  pip => 'present',
}

python::pyvenv { '/opt/app/venv':
  ensure => present,
}

python::pip { 'requests':
  ensure     => '2.31.0',
  virtualenv => '/opt/app/venv',
}
