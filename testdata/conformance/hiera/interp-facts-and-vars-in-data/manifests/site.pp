$a = lookup('a')
$b = lookup('b')
notify { "a=${a}": }
notify { "b=${b}": }
