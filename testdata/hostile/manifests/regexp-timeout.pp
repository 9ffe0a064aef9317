# expect: 1 regexp match timeout
# Ruby matches (the "!" branch); the backtracking engine gives up: an error, never "no match".
if 'aaaaaaaaaaaaaaaaaaaaaaaa!' =~ /(a+)+\1$|!/ { notify { 'matched': } } else { notify { 'else': } }
