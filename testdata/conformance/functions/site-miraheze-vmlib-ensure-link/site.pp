notify { 'call 1: present': message => [ensure_link('present'), ensure_link('true'), ensure_link(true)] }
notify { 'call 2: absent': message => [ensure_link('absent'), ensure_link('false'), ensure_link(false)] }
