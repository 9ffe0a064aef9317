# expect: 1 regexp match timeout
notify { assert_type(Array[Pattern[/(a+)+\1$|!/]], ['aaaaaaaaaaaaaaaaaaaaaaaa!']): }
