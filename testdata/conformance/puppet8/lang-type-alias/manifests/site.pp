class { 'netcfg': port => 443, mode => 'tcp' }
