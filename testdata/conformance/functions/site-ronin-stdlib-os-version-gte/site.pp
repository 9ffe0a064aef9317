# Sample calls of os_version_gte; each result is a notify message.
notify { 'call 1: os_version_gte(\'Debian\', \'11\')':
  message => os_version_gte('Debian', '11'),
}
notify { 'call 2: os_version_gte(\'Debian\', \'13\')':
  message => os_version_gte('Debian', '13'),
}
notify { 'call 3: os_version_gte(\'Ubuntu\', \'20.04\')':
  message => os_version_gte('Ubuntu', '20.04'),
}
notify { 'call 4: os_version_gte(\'Debian\', \'12\')':
  message => os_version_gte('Debian', '12'),
}
