@@notify { 'exported-realized': }
@@notify { 'exported-never-collected': }
@@file { '/etc/exported-file': ensure => file, tag => 'shared' }
Notify <| title == 'exported-realized' |>
File <<| tag == 'shared' |>>
notify { 'plain': }
