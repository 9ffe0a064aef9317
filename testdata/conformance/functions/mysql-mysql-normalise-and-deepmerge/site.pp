notify { 'call 1: README-style override': message => mysql::normalise_and_deepmerge(
  { 'mysqld' => { 'bind-address' => '127.0.0.1', 'max_connections' => 100, 'key_buffer_size' => '16M' } },
  { 'mysqld' => { 'bind_address' => '0.0.0.0', 'max-connections' => 200 }, 'client' => { 'port' => 3306 } },
) }
notify { 'call 2: empty strings skipped': message => mysql::normalise_and_deepmerge('', { 'a' => 1 }, '') }
notify { 'call 3: three hashes, non-hash overrides hash': message => mysql::normalise_and_deepmerge({ 'x' => { 'y' => 1 } }, { 'x' => 'flat' }, { 'z' => [1] }) }
