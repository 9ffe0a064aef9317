# Sample calls of stdlib::os_version_gte; each result is a notify message.
notify { 'call 1: stdlib::os_version_gte(\'Debian\', \'11\')':
  message => stdlib::os_version_gte('Debian', '11'),
}
notify { 'call 2: stdlib::os_version_gte(\'Debian\', \'13\')':
  message => stdlib::os_version_gte('Debian', '13'),
}
notify { 'call 3: stdlib::os_version_gte(\'Ubuntu\', \'20.04\')':
  message => stdlib::os_version_gte('Ubuntu', '20.04'),
}
notify { 'call 4: stdlib::os_version_gte(\'Debian\', \'12.5\')':
  message => stdlib::os_version_gte('Debian', '12.5'),
}
