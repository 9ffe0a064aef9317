notify { 'call 1: present': message => [ensure_directory('present'), ensure_directory('true'), ensure_directory(true)] }
notify { 'call 2: absent': message => [ensure_directory('absent'), ensure_directory('false'), ensure_directory(false)] }
