notify { 'call 1: README acls': message => postgresql_acls_to_resources_hash([
  'local all postgres ident',
  'host all all 127.0.0.1/32 md5',
  'host all all 10.0.0.0 255.0.0.0 md5 clientcert=1',
  'hostssl db user 192.168.0.0/16 cert map=ssl extra',
  'local db user peer map=x',
], 'test', 100) }
notify { 'call 2: empty': message => postgresql_acls_to_resources_hash([], 'none', 0) }
