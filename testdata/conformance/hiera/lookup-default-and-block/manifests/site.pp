$a = lookup('present', String, 'first', 'dflt')
$b = lookup('absent', String, 'first', 'dflt')
$c = lookup('absent') |$key| { "computed-for-${key}" }
$d = lookup({'name' => 'absent', 'default_values_hash' => {'absent' => 'from-dvh'}})
notify { "a=${a} b=${b} c=${c} d=${d}": }
