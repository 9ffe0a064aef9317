file { '/tmp/a': ; '/tmp/b' mode => '0644' }
