class early {
  file { '/etc/early': ensure => file }
  File { owner => 'deploy' }
}
include early
