include mysql::server
mysql::db { 'app': user => 'app', password => 'secret', host => 'localhost' }
mysql_user { 'x@localhost': password_hash => mysql_password('secret') }
