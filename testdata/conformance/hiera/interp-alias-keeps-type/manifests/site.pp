include ntp
$h = lookup('copy_hash')
notify { "h=${h} type=${type($h, 'generalized')}": }
