$hosts = ['web01.example.com', 'db1001.example.com', 'db2001.example.com', 'mw1001.example.com', 'cp2002.example.com']
notify { 'call 1: hourly': message => cron_splay($hosts, 'hourly', 'seed-a') }
notify { 'call 2: daily': message => cron_splay($hosts, 'daily', 'seed-b') }
notify { 'call 3: weekly': message => cron_splay($hosts, 'weekly', 'seed-c') }
notify { 'call 4: semiweekly': message => cron_splay($hosts, 'semiweekly', 'seed-d') }
