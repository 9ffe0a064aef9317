$a = regsubst('foo bar foo', 'foo', 'baz')
$b = regsubst('foo bar foo', 'foo', 'baz', 'G')
$c = regsubst('Hello', 'hello', 'bye', 'I')
$d = regsubst('john.smith', '^(\w+)\.(\w+)$', '\2, \1')
$e = regsubst(['a1', 'b2'], /\d/, 'N')
notify { "a=${a} b=${b} c=${c} d=${d} e=${e}": }
