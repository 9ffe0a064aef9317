define vhost(String $docroot, Integer $port = 80) {
  file { "/etc/vhosts/${title}.conf":
    ensure  => file,
    content => "root=${docroot} port=${port} name=${name}",
  }
}
vhost { 'shop': docroot => '/srv/shop' }
vhost { 'blog': docroot => '/srv/blog', port => 8080, name => 'blog-name' }
