include ntp
$extra = lookup('extra', Array, 'unique')
notify { "extra=${extra}": }
