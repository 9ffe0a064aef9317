include webserver
$x = lookup('other::setting', String, 'first', 'not-found')
$y = lookup('plainkey', String, 'first', 'not-found')
notify { "x=${x} y=${y}": }
