class { 'ntp': servers => ['0.pool.ntp.org', '1.pool.ntp.org'], restrict => ['127.0.0.1'] }
class { 'ssh': }
include rsync
sysctl::value { 'net.ipv4.ip_forward': value => '1' }
include redis
logrotate::rule { 'app': path => '/var/log/app/*.log', rotate => '5', compress => true }
