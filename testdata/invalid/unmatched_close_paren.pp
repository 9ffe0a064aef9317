notice(1))
