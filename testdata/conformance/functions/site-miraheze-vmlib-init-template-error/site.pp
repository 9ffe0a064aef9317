notify { 'x': message => init_template('svc', 'systemd') }
