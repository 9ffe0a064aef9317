notify { 'call 1: mixed': message => windows_msi_installargs(['/qn', { 'INSTALLDIR' => 'C:\\Program Files\\Puppet' }, { 'PUPPET_AGENT_STARTUP_MODE' => 'Manual' }]) }
notify { 'call 2: empty': message => windows_msi_installargs([]) }
