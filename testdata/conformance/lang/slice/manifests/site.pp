$chunks = slice([1, 2, 3, 4, 5], 2)
notify { "chunks=${chunks}": }
slice(['a', 1, 'b', 2], 2) |$k, $v| { notify { "pair ${k}/${v}": } }
$hh = {'x' => 1, 'y' => 2}
$hh.slice(1) |$entry| { notify { "hash-slice ${entry}": } }
