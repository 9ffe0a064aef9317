class { 'redis':
  bind             => ['127.0.0.1', '10.0.0.11'],
  requirepass      => 'secret',
  maxmemory        => '512mb',
  maxmemory_policy => 'allkeys-lru',
  appendonly       => true,
  save_db_to_disk  => false,
}
