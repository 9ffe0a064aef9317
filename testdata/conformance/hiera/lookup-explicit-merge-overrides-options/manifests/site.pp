$a = lookup('pkgs')
$b = lookup('pkgs', Array, 'first')
notify { "a=${a} b=${b}": }
