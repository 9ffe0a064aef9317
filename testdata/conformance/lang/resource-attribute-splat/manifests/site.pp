$opts = {'ensure' => 'directory', 'owner' => 'root', 'mode' => '0750'}
file { '/srv/app':
  group => 'www-data',
  *     => $opts,
}
