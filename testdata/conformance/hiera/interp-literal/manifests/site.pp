notify { "v=${lookup('progress')}": }
