@user { 'alice': ensure => present, uid => 1001 }
@user { 'bob': ensure => present, uid => 1002 }
@user { 'carol': ensure => present, uid => 1003 }
realize(User['alice'])
User <| title == 'bob' |>
