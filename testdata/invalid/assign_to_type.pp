Integer = 1
