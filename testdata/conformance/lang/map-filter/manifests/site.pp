$doubled = [1, 2, 3].map |$x| { $x * 2 }
$names = {'a' => 1, 'b' => 2}.map |$k, $v| { "${k}${v}" }
$evens = [1, 2, 3, 4, 5, 6].filter |$x| { $x % 2 == 0 }
$big = {'a' => 1, 'b' => 20, 'c' => 30}.filter |$k, $v| { $v > 10 }
$indexed = ['x', 'y', 'z'].filter |$i, $v| { $i != 1 }
notify { "doubled=${doubled} names=${names} evens=${evens} big=${big} indexed=${indexed}": }
