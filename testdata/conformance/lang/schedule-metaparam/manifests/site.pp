schedule { 'nightly': period => daily, range => '2 - 4' }
exec { 'backup': command => '/usr/bin/backup', schedule => 'nightly' }
