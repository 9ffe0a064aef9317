class webserver(Hash $vhosts = {}) {
  $vhosts.each |$name, $cfg| { notify { "${name}:${cfg['port']}": } }
}
