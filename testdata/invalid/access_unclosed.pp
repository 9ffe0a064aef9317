$x = $facts['os'
