notify { 'call 1: nested path': message => grafana::get_sub_paths('/var/lib/grafana/dashboards/x.json') }
notify { 'call 2: double slashes': message => grafana::get_sub_paths('//etc//grafana///provisioning/file') }
notify { 'call 3: top-level file': message => grafana::get_sub_paths('/file') }
notify { 'call 4: empty string': message => grafana::get_sub_paths('') }
