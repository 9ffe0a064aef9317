define conffile(String $path = "/etc/${title}.conf", String $owner = 'root') {
  file { $path: ensure => file, owner => $owner }
}
conffile { 'app': }
conffile { 'db': path => '/srv/db.conf' }
