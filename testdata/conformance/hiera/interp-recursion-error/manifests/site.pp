notify { "v=${lookup('loop_a')}": }
