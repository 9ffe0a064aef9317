class { 'nodejs': }
