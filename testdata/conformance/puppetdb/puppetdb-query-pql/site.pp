node /^web/ {
  @@file { "/tmp/exported/${facts['hostname']}": content => 'x' }
}
node 'mon.example.com' {
  $rows = puppetdb_query('resources[certname, title] { type = "File" and exported = true order by title }')
  $rows.each |$r| { notify { "${r['certname']} ${r['title']}": } }
  notify { "count ${rows.length}": }
}
