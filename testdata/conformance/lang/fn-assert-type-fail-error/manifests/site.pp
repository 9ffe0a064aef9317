$v = assert_type(Integer[1, 10], 50)
notify { "v=${v}": }
