$a.each |x| { notice(x) }
