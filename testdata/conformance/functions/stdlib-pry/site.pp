# Sample calls of pry; each result is a notify message.
pry()
