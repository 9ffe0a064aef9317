# Sample calls of validate_cmd; each result is a notify message.
validate_cmd('some content', '/bin/true')
notify { 'call 1: validate_cmd(\'some content\', \'/bin/true\')': }
validate_cmd("content\n", '/bin/test -f %')
notify { 'call 2: validate_cmd("content\\n", \'/bin/test -f %\')': }
validate_cmd('x', '/bin/true', 'custom message')
notify { 'call 3: validate_cmd(\'x\', \'/bin/true\', \'custom message\')': }
