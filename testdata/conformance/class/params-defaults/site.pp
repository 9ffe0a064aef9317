class apache ($version = 'latest', $port = 80) {
  package { 'apache2': ensure => $version }
  notify { "port=${port}": }
}
include apache
