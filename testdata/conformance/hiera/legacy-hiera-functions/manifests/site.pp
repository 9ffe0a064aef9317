$a = hiera('packages')
$b = hiera_array('packages')
$c = hiera_hash('users')
$d = hiera('missing', 'dflt')
notify { "a=${a}": }
notify { "b=${b}": }
notify { "c=${c}": }
notify { "d=${d}": }
