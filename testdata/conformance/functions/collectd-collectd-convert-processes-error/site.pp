notify { 'bad element': message => collectd_convert_processes(['ok', 42]) }
