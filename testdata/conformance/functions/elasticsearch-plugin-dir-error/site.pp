notify { 'three arguments': message => plugin_dir('a', 'b', 'c') }
