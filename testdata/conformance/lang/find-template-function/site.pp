$found = find_template('m/nope.epp', 'm/sub/u.epp')
$found_array = find_template(['m/nope', 'm/t.epp'])
$f1 = $found =~ /m.templates.sub.u.epp$/
$f2 = $found_array =~ /m.templates.t.epp$/
$f3 = find_template('m/nope') == undef
$f4 = find_template('nomodule/t.epp') == undef
notify { "find_template=${f1},${f2},${f3},${f4}": }
notify { 'inline': message => inline_epp(find_template('m/t.epp').file, { 'who' => 'world' }) }
