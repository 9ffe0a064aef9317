class apache ($version = 'latest', $port = 80) {
  package { 'apache2': ensure => $version }
  notify { "port=${port}": }
}
class { 'apache': version => '2.4.57' }
