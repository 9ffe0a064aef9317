class role::web { notify { 'role::web': } }
