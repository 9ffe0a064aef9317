$a = Integer('12') + 1
$b = Integer('0x1F')
$c = Float('2.5') * 2
$d = String(12)
$e = String([1, 'a'])
$f = Boolean('yes')
$g = Array({'k' => 'v'})
$h = Integer.new('0755')
$i = Numeric('3.0')
notify { "a=${a} b=${b} c=${c} d=${d} e=${e} f=${f} g=${g} h=${h} i=${i}": }
