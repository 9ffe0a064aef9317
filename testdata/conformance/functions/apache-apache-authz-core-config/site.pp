notify { 'call 1: require_all block':
  message => apache::authz_core_config({ 'require_all' => { 'require' => ['all granted', 'ip 10.0.0.0/8'] } }),
}
notify { 'call 2: flat require':
  message => apache::authz_core_config({ 'require' => ['all denied'] }),
}
notify { 'call 3: empty hash':
  message => apache::authz_core_config({}),
}
notify { 'call 4: nested require_any in require_all':
  message => apache::authz_core_config({
    'require_all' => {
      'require_any' => { 'require' => ['user alice', 'group admins'] },
      'require_none' => { 'require' => ['ip 192.168.0.0/16'] },
    },
  }),
}
