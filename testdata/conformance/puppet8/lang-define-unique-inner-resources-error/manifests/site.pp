define conflict() {
  file { '/etc/shared.conf': ensure => file }
}
conflict { ['one', 'two']: }
