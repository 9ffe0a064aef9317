notify { 'debian 12': message => stdlib::os_version_gte('Debian', '12') }
notify { 'debian 13': message => stdlib::os_version_gte('Debian', '13') }
notify { 'debian 11.1': message => stdlib::os_version_gte('Debian', '11.1') }
notify { 'centos 7': message => stdlib::os_version_gte('CentOS', '7') }
notify { 'shim': message => os_version_gte('Debian', '10') }
