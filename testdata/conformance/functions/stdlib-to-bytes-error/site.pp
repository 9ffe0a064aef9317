# Sample calls of to_bytes; each result is a notify message.
notice(to_bytes('1g'))
