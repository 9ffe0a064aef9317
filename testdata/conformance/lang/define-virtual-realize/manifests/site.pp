define account(Integer $uid) {
  user { $title: ensure => present, uid => $uid }
}
@account { 'alice': uid => 1001 }
@account { 'bob': uid => 1002 }
@account { 'carol': uid => 1003 }
realize(Account['alice'])
Account <| uid == 1002 |>
