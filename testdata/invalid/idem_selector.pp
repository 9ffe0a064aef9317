$a = 'x'
$a ? { default => 1 }
notice($a)
