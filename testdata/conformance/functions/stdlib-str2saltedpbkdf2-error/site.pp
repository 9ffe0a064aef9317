# Sample calls of str2saltedpbkdf2; each result is a notify message.
notice(str2saltedpbkdf2('pw', 'saltsaltsalt', 1))
