define site(String $docroot = '/var/www', Integer $port = 80) {
  notify { "${title} ${docroot}:${port}": }
}
Site { port => 8080 }
site { 'a': }
site { 'b': port => 9090 }
