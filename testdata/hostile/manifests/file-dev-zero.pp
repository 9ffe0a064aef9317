# expect: 1 not a regular file
notify { file('/dev/zero'): }
