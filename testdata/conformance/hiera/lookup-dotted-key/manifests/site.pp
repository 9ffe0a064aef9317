notify { "v=${lookup('db.replicas.1')} port=${lookup('db.port')}": }
