class { 'prometheus':
  manage_prometheus_server => true,
  version                  => '2.52.0',
  scrape_configs           => [
    {
      'job_name'        => 'node',
      'scrape_interval' => '10s',
      'static_configs'  => [{ 'targets' => ['localhost:9100'] }],
    },
  ],
  alertmanagers_config     => [{ 'static_configs' => [{ 'targets' => ['localhost:9093'] }] }],
}

class { 'prometheus::alertmanager':
  version   => '0.27.0',
  route     => {
    'group_by'        => ['alertname', 'cluster', 'service'],
    'group_wait'      => '30s',
    'group_interval'  => '5m',
    'repeat_interval' => '3h',
    'receiver'        => 'slack',
  },
  receivers => [
    {
      'name'          => 'slack',
      'slack_configs' => [
        {
          'api_url'       => 'https://hooks.slack.com/services/ABCDEFG123456',
          'channel'       => '#channel',
          'send_resolved' => true,
          'username'      => 'username',
        },
      ],
    },
  ],
}
