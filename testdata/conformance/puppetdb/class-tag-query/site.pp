class role::web {
  @@file { "/tmp/role/${facts['hostname']}": content => 'web' }
}
class role::db {
  @@file { "/tmp/role/db-${facts['hostname']}": content => 'db' }
}
node 'web01.example.com' { include role::web }
node 'web02.example.com' { include role::db }
node 'mon.example.com' {
  File <<| tag == 'role::web' |>>
}
