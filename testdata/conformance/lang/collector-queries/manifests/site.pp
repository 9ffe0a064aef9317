@package { 'a': ensure => installed, tag => ['web'] }
@package { 'b': ensure => absent, tag => ['web', 'db'] }
@package { 'c': ensure => installed, tag => ['db'] }
@package { 'd': ensure => latest }
@package { 'e': ensure => installed }
Package <| ensure == installed and tag == 'web' |>
Package <| (tag == 'db' and ensure != installed) or title == 'd' |>
