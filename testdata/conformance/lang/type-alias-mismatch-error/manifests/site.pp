class { 'netcfg': port => 70000 }
