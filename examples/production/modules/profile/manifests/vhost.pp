# One nginx site.
define profile::vhost (
  Integer[1, 65535] $port,
  String $docroot = "/srv/www/${title}",
) {
  file { "/etc/nginx/sites-enabled/${title}.conf":
    ensure  => file,
    content => "server { listen ${port}; root ${docroot}; }\n",
    notify  => Service['nginx'],
  }
}
