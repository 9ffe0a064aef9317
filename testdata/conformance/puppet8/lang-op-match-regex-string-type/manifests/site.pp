$r1 = 'foobar' =~ /o+b/
$r2 = 'foobar' !~ /^bar/
$r3 = 'foobar' =~ '^f.o'
$r4 = 42 =~ Integer
$r5 = 'x' =~ Integer
$r6 = [1, 2] =~ Array[Integer]
$r7 = 'FOO' =~ /foo/
notify { "r1=${r1} r2=${r2} r3=${r3} r4=${r4} r5=${r5} r6=${r6} r7=${r7}": }
