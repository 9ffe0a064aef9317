# Sample calls of ensure_resource; each result is a notify message.
ensure_resource('user', 'dan', {'ensure' => 'present'})
notify { 'call 1: ensure_resource(\'user\', \'dan\', {\'ensure\' => \'present\'})': }
ensure_resource('user', 'dan', {'ensure' => 'present'})
notify { 'call 2: ensure_resource(\'user\', \'dan\', {\'ensure\' => \'present\'})': }
ensure_resource('file', ['/tmp/a', '/tmp/b'], {'ensure' => 'directory'})
notify { 'call 3: ensure_resource(\'file\', [\'/tmp/a\', \'/tmp/b\'], {\'ensure\' => \'directory\'})': }
ensure_resource('package', 'vim')
notify { 'call 4: ensure_resource(\'package\', \'vim\')': }
