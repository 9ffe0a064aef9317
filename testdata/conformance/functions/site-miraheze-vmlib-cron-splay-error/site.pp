notify { 'x': message => cron_splay(['other.example.com'], 'daily', 'seed') }
