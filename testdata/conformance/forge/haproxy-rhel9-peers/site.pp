class { 'haproxy':
  global_options   => {
    'log'     => "${facts['networking']['ip']} local0",
    'chroot'  => '/var/lib/haproxy',
    'maxconn' => '8000',
    'user'    => 'haproxy',
    'group'   => 'haproxy',
    'daemon'  => '',
  },
  defaults_options => {
    'log'     => 'global',
    'mode'    => 'http',
    'timeout' => ['connect 5s', 'client 30s', 'server 30s'],
  },
}
haproxy::userlist { 'admins':
  users => ['alice insecure-password secret'],
}
haproxy::mapfile { 'domains-to-backends':
  ensure   => 'present',
  mappings => [
    { 'app01.example.com' => 'bk_app01' },
    { 'app02.example.com' => 'bk_app02' },
  ],
}
