# A parameterized type called as a function is new() with that type.
$a = Integer[0, 5]('3')
$b = Optional[Integer]('4')
$c = Array[String]('x')
notify { "a=${a} b=${b} c=${c}": }
