notify { 'call 1: plain salt': message => icinga2::icinga2_ticket_id('mon181.example.org', 'salt123') }
notify { 'call 2: Sensitive salt': message => icinga2::icinga2_ticket_id('web01.example.com', Sensitive('other')) }
