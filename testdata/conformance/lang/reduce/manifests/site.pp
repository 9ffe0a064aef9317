$sum = [1, 2, 3, 4].reduce |$memo, $x| { $memo + $x }
$sum10 = [1, 2, 3, 4].reduce(10) |$memo, $x| { $memo + $x }
$joined = {'a' => 1, 'b' => 2}.reduce('') |$memo, $pair| { "${memo}${pair[0]}${pair[1]}" }
notify { "sum=${sum} sum10=${sum10} joined=${joined}": }
