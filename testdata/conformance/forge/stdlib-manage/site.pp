class { 'stdlib::manage':
  create_resources => {
    'file'    => {
      '/etc/motd.d/hello' => {
        'ensure'  => 'file',
        'content' => 'hello',
      },
    },
    'package' => {
      'htop' => {
        'ensure' => 'installed',
      },
    },
  },
}

$ports = [80, 443, 8080]
notify { 'stdlib':
  message => join([
    stdlib::to_json_pretty({ 'ports' => $ports.sort }),
    stdlib::ensure(true, 'service'),
    to_yaml({ 'a' => 1 }),
    stdlib::end_with('foobar', 'bar'),
    stdlib::ip_in_range('10.0.0.11', '10.0.0.0/24'),
    ($ports + [22]).unique.sort.join(','),
    stdlib::fqdn_rand_string(8),
    stdlib::crc32('abc'),
    stdlib::sha256('abc'),
  ], "\n"),
}
