notify { "servers=${ntp_servers} count=${ntp_servers.length}": }
notify { "nofile=${limits['nofile']}": }
notify { "iburst is ${type($iburst)}, port is ${type($port)}": }
