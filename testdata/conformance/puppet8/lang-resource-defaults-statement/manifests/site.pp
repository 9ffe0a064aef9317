File {
  owner => 'root',
  mode  => '0644',
}
file { '/etc/one': ensure => file }
file { '/etc/two': ensure => file, mode => '0600' }
