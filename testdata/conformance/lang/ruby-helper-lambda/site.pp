$h = { 'a' => 1, 'b' => 2 }
$doubled = site::each_pair($h) |$k, $v| { "${k}:${$v * 2}" }
notify { "lambda: ${doubled}": }
notify { "no lambda: ${site::each_pair($h)}": }
$h.site::each_pair |$k, $v| { notify { "from the lambda ${k}": } }
