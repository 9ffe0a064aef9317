notify { 'plain': }
notify { 'quoted': message => "${stdlib::str2resource('Notify[\'plain\']')}" }
