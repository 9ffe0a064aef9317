class profile::db {
  package { 'postgresql':
    ensure => installed,
  }
}
