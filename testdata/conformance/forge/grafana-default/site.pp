class { 'grafana':
  cfg => {
    app_mode => 'production',
    server   => {
      http_port => 8080,
    },
    database => {
      type => 'sqlite3',
      path => '/var/lib/grafana/grafana.db',
    },
    users    => {
      allow_sign_up => false,
    },
  },
}
