vcsrepo { '/srv/app': ensure => present, provider => git, source => 'https://example.com/app.git' }
ini_setting { 'x': path => '/etc/x.ini', section => 's', setting => 'k', value => 'v' }
augeas { 'x': context => '/files/etc/hosts', changes => ['set 1/ipaddr 127.0.0.1'] }
posix_acl { '/srv/app': action => set, permission => ['user::rwx'] }
mount { '/mnt': ensure => mounted, device => '/dev/sdb1', fstype => 'ext4' }
host { 'db': ip => '10.0.0.5' }
