notify { 'keep': }
notify { 'drop me': }
file { '/tmp/extlib-a': ensure => file }
file { '/tmp/extlib-b': ensure => file }
notify { 'call 1: single': message => [extlib::remove_resource(Notify['drop me'])] }
notify { 'call 2: array': message => [extlib::remove_resource([File['/tmp/extlib-a'], File['/tmp/extlib-b']])] }
notify { 'call 3: missing with soft_fail': message => [extlib::remove_resource(Notify['never declared'], true)] }
