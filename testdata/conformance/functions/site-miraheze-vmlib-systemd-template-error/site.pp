notify { 'x': message => systemd_template('svc') }
