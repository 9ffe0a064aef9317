@class { 'a': }
