notice(1),
