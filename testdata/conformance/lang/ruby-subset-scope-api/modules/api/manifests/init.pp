class api { file { '/tmp/api-x/': ensure => directory } }
