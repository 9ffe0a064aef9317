notify { 'call 1: paths': message => [mysql_dirname('/var/lib/mysql/data'), mysql_dirname('file'), mysql_dirname('/'), mysql_dirname('a/b/')] }
