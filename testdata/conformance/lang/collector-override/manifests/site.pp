file { '/etc/a': ensure => file, mode => '0600' }
@file { '/etc/b': ensure => file }
file { '/etc/c': ensure => file, tag => 'skip' }
File <| tag != 'skip' |> { mode => '0644', owner => 'root' }
