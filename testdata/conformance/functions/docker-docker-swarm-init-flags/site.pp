notify { 'call 1: typical': message => docker_swarm_init_flags({
  'init' => true, 'advertise_addr' => '192.168.1.1', 'autolock' => false, 'cert_expiry' => '2160h',
  'default_addr_pool' => ['10.0.0.0/8', '20.0.0.0/8'], 'default_addr_pool_mask_length' => 24,
  'force_new_cluster' => false, 'listen_addr' => '0.0.0.0:2377', 'max_snapshots' => 5, 'snapshot_interval' => 10000,
}) }
notify { 'call 2: empty hash turns on the negative-default flags': message => docker_swarm_init_flags({}) }
notify { 'call 3: all off': message => docker_swarm_init_flags({ 'init' => false, 'autolock' => false, 'force_new_cluster' => false, 'external_ca' => 'protocol=cfssl,url=https://ca', 'dispatcher_heartbeat' => '5s' }) }
