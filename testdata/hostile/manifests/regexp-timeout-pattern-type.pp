# expect: 1 regexp match timeout
# A Pattern type's regexp that times out: neither an instance nor not one, an error.
if 'aaaaaaaaaaaaaaaaaaaaaaaa!' =~ Pattern[/(a+)+\1$|!/] { notify { 'matched': } } else { notify { 'else': } }
