notify { "v=${lookup('bad')}": }
