$site = 'main'
file { '/tmp/marionette-everywhere': ensure => file }
node 'web01.example.com' {
  notify { "web01 in ${site}": }
}
node default {
  notify { "default in ${site}": }
}
notify { 'after the nodes': }
