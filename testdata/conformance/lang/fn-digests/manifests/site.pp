notify { 'sha1': message => sha1('puppet') }
notify { 'sha256': message => sha256('puppet') }
notify { 'md5': message => md5('puppet') }
