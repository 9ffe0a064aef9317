node /^web/ {
  @@file { "/etc/nginx/conf.d/${facts['hostname']}.conf": content => "server ${facts['hostname']};", tag => ['vhost'] }
}
node 'mon.example.com' {
  package { 'nginx': }
  service { 'nginx': }
  Package['nginx'] -> File <<| tag == 'vhost' |>> ~> Service['nginx']
}
