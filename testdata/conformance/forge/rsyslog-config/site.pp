class { 'rsyslog::config':
  modules       => {
    'imuxsock' => {},
    'imudp'    => {
      'config' => {
        'threads'     => '2',
        'TimeRequery' => '8',
      },
    },
    'omfile'   => {
      'type'   => 'builtin',
      'config' => {
        'fileOwner'      => 'syslog',
        'fileCreateMode' => '0640',
      },
    },
  },
  global_config => {
    'umask'                => {
      'value'    => '0000',
      'type'     => 'legacy',
      'priority' => 1,
    },
    'RepeatedMsgReduction' => {
      'value' => 'on',
      'type'  => 'legacy',
    },
  },
  actions       => {
    'all_logs' => {
      'type'   => 'omfile',
      'facility' => '*.*;auth,authpriv.none',
      'config' => {
        'dynaFile' => 'remoteSyslog',
        'specifics' => '/var/log/test',
      },
    },
  },
}
