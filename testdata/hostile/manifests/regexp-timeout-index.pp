# expect: 1 regexp match timeout
notify { String(index('aaaaaaaaaaaaaaaaaaaaaaaa!', /(a+)+\1$|!/)): }
