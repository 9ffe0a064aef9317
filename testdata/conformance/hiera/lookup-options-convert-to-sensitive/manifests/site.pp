$pw = lookup('db_password')
notify { "pw=${pw} unwrapped-length=${pw.unwrap.length}": }
