file { 'a' }
