class monitored { notify { 'probe': } }
class { 'monitored': tag => 'monitoring' }
