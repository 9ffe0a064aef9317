$a = [1]
$a[0]
notice($a)
