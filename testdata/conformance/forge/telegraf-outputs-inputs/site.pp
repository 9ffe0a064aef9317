class { 'telegraf':
  hostname => $facts['hostname'],
  outputs  => {
    'influxdb' => [
      {
        'urls'     => [ "http://influxdb0.${facts['domain']}:8086", "http://influxdb1.${facts['domain']}:8086" ],
        'database' => 'telegraf',
        'username' => 'telegraf',
        'password' => 'metricsmetricsmetrics',
      }
    ]
  },
}

telegraf::input { 'influxdb-dc':
  plugin_type => 'influxdb',
  options     => [
    {
      'urls' => ['http://remote-dc:8086',],
    }
  ],
}
