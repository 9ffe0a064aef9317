# The example site manifest: code outside nodes applies to every node.
File {
  owner => 'root',
  group => 'root',
}

$motd_banner = "Managed by Puppet (compiled by marionette)"

node 'web01.example.com', 'web02.example.com' {
  $role = 'web'
  include profile::base
  include profile::web
}

node /^db(\d+)\.example\.com$/ {
  $role = 'db'
  $db_index = $1
  # Resource-like first: profile::base includes ntp again, which is fine
  # after (not before) this declaration.
  class { 'ntp':
    servers => ['0.pool.ntp.org', '1.pool.ntp.org'],
  }
  include profile::base
  notify { "database server number ${db_index}": }
}

node default {
  include profile::base
}
