$m = match('version 1.22.3', /(\d+)\.(\d+)\.(\d+)/)
$n = match('nothing', /\d+/)
$a = match(['a1', 'b', 'c3'], /[a-z](\d)/)
notify { "m=${m} n=[${n}] a=${a}": }
