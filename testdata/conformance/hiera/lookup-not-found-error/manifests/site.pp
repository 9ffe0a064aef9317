$x = lookup('does::not::exist')
