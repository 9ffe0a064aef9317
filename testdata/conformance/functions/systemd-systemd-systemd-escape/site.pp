notify { 'call 1: plain with dash and space': message => systemd::systemd_escape('my-service name') }
notify { 'call 2: path': message => systemd::systemd_escape('/mnt/data dir/', true) }
notify { 'call 3: unicode and specials': message => systemd::systemd_escape('ü@x:y\\z') }
