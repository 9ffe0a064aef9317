notify { "v=${lookup('key')}": }
