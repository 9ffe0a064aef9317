include haproxy
haproxy::listen { 'puppet00':
  collect_exported => false,
  ipaddress        => $facts['networking']['ip'],
  ports            => '18140',
}
haproxy::balancermember { 'master00':
  listening_service => 'puppet00',
  server_names      => 'master00.example.com',
  ipaddresses       => '10.0.0.10',
  ports             => '8140',
  options           => 'check',
}
haproxy::frontend { 'www':
  ipaddress => '*',
  ports     => '80',
  mode      => 'http',
  options   => {
    'default_backend' => 'app',
    'option'          => ['httplog'],
  },
}
haproxy::backend { 'app':
  mode    => 'http',
  options => {
    'option'  => ['httpchk GET /health'],
    'balance' => 'roundrobin',
  },
}
haproxy::balancermember { 'app':
  listening_service => 'app',
  server_names      => ['app1', 'app2'],
  ipaddresses       => ['10.0.0.21', '10.0.0.22'],
  ports             => '8080',
  options           => 'check',
}
