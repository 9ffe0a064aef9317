notify { "up=${upcase('abc')} down=${downcase('AbC')} cap=${capitalize('hello world')} arr=${upcase(['a', 'b'])}": }
