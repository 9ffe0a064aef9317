$h = {'web' => 80, 'ssh' => 22}
$h.each |$pair| { notify { "pair ${pair[0]}:${pair[1]}": } }
each($h) |$k, $v| { notify { "kv ${k}=${v}": } }
