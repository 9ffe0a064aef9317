Integer
notice(1)
