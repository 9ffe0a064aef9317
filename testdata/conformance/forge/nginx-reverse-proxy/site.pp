include nginx

nginx::resource::server { 'kibana.example.com':
  listen_port => 80,
  proxy       => 'http://localhost:5601',
}

nginx::resource::upstream { 'puppet_rack_app':
  members => {
    'localhost:3000' => {
      server => 'localhost',
      port   => 3000,
      weight => 1,
    },
    'localhost:3001' => {
      server => 'localhost',
      port   => 3001,
      weight => 2,
    },
  },
}

nginx::resource::server { 'rack.example.com':
  proxy => 'http://puppet_rack_app',
}
