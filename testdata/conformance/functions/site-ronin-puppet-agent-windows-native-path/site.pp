notify { 'call 1: path': message => windows_native_path('C:/ProgramData/PuppetLabs/puppet/etc') }
notify { 'call 2: space': message => windows_native_path('C:/Program Files/ Puppet/x') }
