class role::database {
  package { 'postgresql': ensure => installed }
}
