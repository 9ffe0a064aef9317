$stepped = [0, 1, 2, 3, 4, 5, 6].step(3) |$x| { notify { "step ${x}": } }
['a', 'b', 'c'].reverse_each |$x| { notify { "rev ${x}": } }
$r = Array([1, 2, 3].reverse_each)
$s = Array(Integer[1, 10].step(4))
notify { "r=${r} s=${s}": }
