node /^web/ {
  @@file { "/tmp/exported/${facts['hostname']}": content => 'x', mode => '0644' }
}
node 'mon.example.com' {
  $rows = puppetdb_query(['from', 'resources', ['extract', ['certname', 'title', 'parameters'], ['and', ['=', 'type', 'File'], ['=', 'exported', true]]], ['order_by', ['title']]])
  $rows.each |$r| { notify { "${r['certname']} ${r['title']} ${r['parameters']['mode']}": } }
}
