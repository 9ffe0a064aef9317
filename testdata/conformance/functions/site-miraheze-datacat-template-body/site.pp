notify { 'call 1: one template': message => template_body('irc/aptproxy.erb') }
notify { 'call 2: two joined': message => template_body('icingaweb2/redis.ini.erb', 'irc/initscripts/logbot.systemd.erb') }
notify { 'call 3: none': message => String(template_body()) }
