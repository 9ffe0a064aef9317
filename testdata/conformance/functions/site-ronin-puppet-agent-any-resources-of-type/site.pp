file { '/tmp/a': ensure => file, mode => '0644' }
package { 'vim': ensure => installed }
notify { 'call 1: types': message => [any_resources_of_type('file'), any_resources_of_type('Package'), any_resources_of_type('service')] }
notify { 'call 2: params': message => [any_resources_of_type('file', { 'ensure' => 'file' }), any_resources_of_type('file', { 'mode' => '0600' })] }
