# Sample calls of defined_with_params; each result is a notify message.
user { 'dan': ensure => present, shell => '/bin/bash' }
notify { 'call 1: defined_with_params(User[\'dan\'], {\'ensure\' => \'present\'})':
  message => defined_with_params(User['dan'], {'ensure' => 'present'}),
}
notify { 'call 2: defined_with_params(User[\'dan\'], {\'ensure\' => \'absent\'})':
  message => defined_with_params(User['dan'], {'ensure' => 'absent'}),
}
notify { 'call 3: defined_with_params(\'User[dan]\', {})':
  message => defined_with_params('User[dan]', {}),
}
notify { 'call 4: defined_with_params(User[\'nobody\'])':
  message => defined_with_params(User['nobody']),
}
notify { 'call 5: defined_with_params(\'User[dan]\', \'\')':
  message => defined_with_params('User[dan]', ''),
}
notify { 'call 6: defined_with_params(User[\'dan\'], {\'shell\' => \'/bin/bash\', \'ensure\' => \'present\'})':
  message => defined_with_params(User['dan'], {'shell' => '/bin/bash', 'ensure' => 'present'}),
}
