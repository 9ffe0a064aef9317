class { 'apt':
  update => { 'frequency' => 'daily' },
  purge  => { 'sources.list.d' => true },
}
apt::ppa { 'ppa:ondrej/php': }
