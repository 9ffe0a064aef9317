class webserver(String $package = 'none', Integer $port = 1) {
  package { $package: ensure => installed }
  notify { "port=${port}": }
}
