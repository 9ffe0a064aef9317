notify { 'call 1: running': message => [ensure_service('running'), ensure_service('present'), ensure_service('true'), ensure_service(true)] }
notify { 'call 2: stopped': message => [ensure_service('stopped'), ensure_service('absent'), ensure_service('false'), ensure_service(false)] }
