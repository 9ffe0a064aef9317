file { 'a': mode }
