node 'www1.example.com', 'www2.example.com', 'www3.example.com' {
  notify { "web tier for ${facts['hostname']}": }
  include common
}
node default {
  notify { 'default node': }
}
class common {
  file { '/tmp/marionette-common': ensure => file }
}
