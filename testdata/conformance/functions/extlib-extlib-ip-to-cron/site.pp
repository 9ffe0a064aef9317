notify { 'call 1: default 1800': message => extlib::ip_to_cron() }
notify { 'call 2: every 10 minutes': message => extlib::ip_to_cron(600) }
notify { 'call 3: every 6 hours': message => extlib::ip_to_cron(21600) }
notify { 'call 4: hourly': message => extlib::ip_to_cron(3600) }
