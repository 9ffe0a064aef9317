class { 'selinux':
  mode => 'enforcing',
  type => 'targeted',
}

selinux::boolean { 'httpd_can_network_connect': }

selinux::port { 'allow-http-8080':
  seltype  => 'http_port_t',
  protocol => 'tcp',
  port     => 8080,
}

selinux::fcontext { 'set-webroot-context':
  seltype  => 'httpd_sys_content_t',
  pathspec => '/srv/www(/.*)?',
}
