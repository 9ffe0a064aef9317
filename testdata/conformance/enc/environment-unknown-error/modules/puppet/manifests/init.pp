class puppet {
  package { 'puppet-agent': ensure => installed }
}
