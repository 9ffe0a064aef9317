notify { 'x': message => template_body('irc/aptproxy.erb', 'irc/nope.erb', 'nomodule/x.erb') }
