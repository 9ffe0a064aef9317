$v = lookup('values')
$v.each |$k, $x| { notify { "${k}=${x} (${type($x, 'generalized')})": } }
