node 'web01.example.com' {
  $osfamily = 'Custom'
  notify { "local=${osfamily} top=${::osfamily} fact=${facts['osfamily']}": }
}
