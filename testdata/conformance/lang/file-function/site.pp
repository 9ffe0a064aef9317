notify { 'one': message => file('m/a.txt') }
notify { 'first-found': message => file('m/nope', 'nomodule/x', 'm/sub/b.txt') }
$found = find_file('m/nope', 'm/sub/b.txt')
$found_array = find_file(['m/nope', 'm/a.txt'])
$f1 = $found =~ /m.files.sub.b.txt$/
$f2 = $found_array =~ /m.files.a.txt$/
$f3 = find_file('m/nope') == undef
$f4 = find_file('m') == undef
$f5 = find_file('m/sub') =~ String
notify { "find_file=${f1},${f2},${f3},${f4},${f5}": }
