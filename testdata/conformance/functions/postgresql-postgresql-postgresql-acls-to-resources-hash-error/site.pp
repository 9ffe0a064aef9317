notify { 'short line': message => postgresql::postgresql_acls_to_resources_hash(['local all postgres ident', 'host all'], 'x', 0) }
