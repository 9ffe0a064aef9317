class { 'limits': }
limits::limits { '*/nofile':
  hard => 1048576,
  soft => 1048576,
}
limits::limits { 'root/nofile': both => 1048576; }
limits::limits { 'username_nproc':
  ensure     => present,
  user       => 'username',
  limit_type => 'nproc',
  hard       => 16384,
}
