$opts = {'mode' => '0750'}
file { '/srv/app':
  mode => '0700',
  *    => $opts,
}
