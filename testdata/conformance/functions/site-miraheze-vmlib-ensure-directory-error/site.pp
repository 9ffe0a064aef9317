notify { 'x': message => ensure_directory('latest') }
