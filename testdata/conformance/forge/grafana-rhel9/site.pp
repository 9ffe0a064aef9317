class { 'grafana':
  cfg => {
    server      => { http_port => 3000, root_url => 'https://grafana.example.com/' },
    'auth.ldap' => { enabled => true, config_file => '/etc/grafana/ldap.toml' },
    security    => { admin_user => 'admin', admin_password => 'secret' },
  },
}
