class profile::db {
  include profile::postgresql_tuning
  package { 'postgresql':
    ensure => installed,
  }
}
