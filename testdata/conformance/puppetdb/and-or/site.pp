node /^web/ {
  @@file { "/tmp/a-${facts['hostname']}": mode => '0644', tag => ['site'] }
  @@file { "/tmp/b-${facts['hostname']}": mode => '0600', tag => ['site'] }
  @@file { "/tmp/c-${facts['hostname']}": mode => '0644' }
}
node 'mon.example.com' {
  File <<| (tag == 'site' and mode == '0644') or title == '/tmp/c-web02' |>>
}
