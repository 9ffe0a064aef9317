$role = 'proxy'
include ntp
