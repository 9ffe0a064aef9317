@@class { 'a': }
