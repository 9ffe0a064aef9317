$h = {'present' => 'yes'}
$a = $h['present'].then |$v| { "got ${v}" }
$b = $h['absent'].then |$v| { "got ${v}" }
$c = $h['absent'].lest || { 'fallback' }
$d = $h['present'].lest || { 'fallback' }
notify { "a=${a} b=[${b}] c=${c} d=${d}": }
