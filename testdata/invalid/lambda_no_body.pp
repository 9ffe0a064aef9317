$a.each |$x|
