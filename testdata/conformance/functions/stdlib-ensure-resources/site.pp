# Sample calls of ensure_resources; each result is a notify message.
ensure_resources('user', {'dan' => {'gid' => 'mygroup', 'uid' => '600'}, 'alex' => {'gid' => 'mygroup'}}, {'ensure' => 'present'})
notify { 'call 1: ensure_resources(\'user\', {\'dan\' => {\'gid\' => \'mygroup\', \'uid\' => \'600\'}, \'alex\' => {\'gid\' => \'mygroup\'}}, {\'ensure\' => \'present\'})': }
ensure_resources('package', {'vim' => {}})
notify { 'call 2: ensure_resources(\'package\', {\'vim\' => {}})': }
ensure_resources('user', {'dan' => {'gid' => 'mygroup', 'uid' => '600'}}, {'ensure' => 'present'})
notify { 'call 3: ensure_resources(\'user\', {\'dan\' => {\'gid\' => \'mygroup\', \'uid\' => \'600\'}}, {\'ensure\' => \'present\'})': }
