@group { 'ops': ensure => present }
@group { 'dev': ensure => present }
@user { 'nope': ensure => present }
Group <| |>
