notify { String(Timestamp('2020-01-01T10:11')): }
