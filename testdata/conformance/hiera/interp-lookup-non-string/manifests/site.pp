notify { "v=${lookup('msg')}": }
