# Sample calls of validate_augeas; each result is a notify message.
validate_augeas("root:x:0:0:root:/root:/bin/bash\n", 'Passwd.lns')
notify { 'call 1: validate_augeas("root:x:0:0:root:/root:/bin/bash\\n", \'Passwd.lns\')': }
validate_augeas("root:x:0:0:root:/root:/bin/bash\n", 'Passwd.lns', [])
notify { 'call 2: validate_augeas("root:x:0:0:root:/root:/bin/bash\\n", \'Passwd.lns\', [])': }
validate_augeas("127.0.0.1 localhost\n", 'Hosts.lns', ['$file/*[canonical = "nonexistent"]'])
notify { 'call 3: validate_augeas("127.0.0.1 localhost\\n", \'Hosts.lns\', [\'$file/*[canonical = "nonexistent"]\'])': }
