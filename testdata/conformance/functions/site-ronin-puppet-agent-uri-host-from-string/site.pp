notify { 'call 1: https': message => uri_host_from_string('https://puppet.example.com:8140/path?q=1') }
notify { 'call 2: user and port': message => uri_host_from_string('ftp://user@files.example.org:21') }
notify { 'call 3: no host': message => String(uri_host_from_string('/just/a/path')) }
