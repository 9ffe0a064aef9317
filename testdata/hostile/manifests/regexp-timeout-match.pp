# expect: 1 regexp match timeout
notify { String(match('aaaaaaaaaaaaaaaaaaaaaaaa!', /(a+)+\1$|!/)): }
