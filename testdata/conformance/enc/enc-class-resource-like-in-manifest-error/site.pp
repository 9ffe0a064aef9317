class { 'ntp': ntpserver => 'site.example.com' }
