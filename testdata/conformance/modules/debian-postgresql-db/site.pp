class { 'postgresql::globals': version => '15', manage_package_repo => false }
class { 'postgresql::server': }
postgresql::server::db { 'app': user => 'app', password => postgresql::postgresql_password('app', 'secret') }
postgresql::server::role { 'ro': password_hash => 'md5abc' }
postgresql::server::pg_hba_rule { 'allow app': type => 'host', database => 'app', user => 'app', address => '10.0.0.0/8', auth_method => 'md5' }
