$f = flatten([1, [2, [3, [4]]], 5])
$u = unique(['b', 'a', 'b', 'c', 'a'])
$s = sort(['pear', 'Apple', 'banana'])
$n = sort([10, 2, 33, 1])
$c = sort([3, 1, 2]) |$a, $b| { compare($b, $a) }
notify { "f=${f} u=${u} s=${s} n=${n} c=${c}": }
