notify { 'call 1: everything': message => mysql::innobackupex_args('backup', true, 'secret', ['db1', 'db2'], ['--no-timestamp', '--parallel=4']) }
notify { 'call 2: no user': message => mysql::innobackupex_args(undef, false, 'secret', [], []) }
notify { 'call 3: no password, compress': message => mysql::innobackupex_args('backup', true, undef, ['only'], []) }
notify { 'call 4: sensitive password': message => mysql::innobackupex_args('u', false, Sensitive('pw'), [], []) }
