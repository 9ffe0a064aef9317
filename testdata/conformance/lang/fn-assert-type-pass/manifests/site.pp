$v = assert_type(Integer[1, 10], 5)
$s = assert_type(String, 'text')
notify { "v=${v} s=${s}": }
