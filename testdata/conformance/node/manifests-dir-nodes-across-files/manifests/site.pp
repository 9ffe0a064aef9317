notify { 'site-wide': }
