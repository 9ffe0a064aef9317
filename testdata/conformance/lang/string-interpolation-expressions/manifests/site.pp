$h = {'k' => ['first', 'second']}
$n = 41
$s = 'shout'
notify { "access=${h['k'][0]} call=${upcase($s)} method=${s.capitalize} arith=${$n + 1} bare=${n} len=${h['k'].length}": }
