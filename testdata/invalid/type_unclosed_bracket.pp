$x = Integer[1
