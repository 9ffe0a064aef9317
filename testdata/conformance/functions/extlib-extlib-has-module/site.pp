notify { 'call 1: present': message => extlib::has_module('puppetlabs/stdlib') }
notify { 'call 2: dash form': message => extlib::has_module('puppet-extlib') }
notify { 'call 3: wrong author': message => extlib::has_module('someone/stdlib') }
notify { 'call 4: absent module': message => extlib::has_module('puppetlabs/nosuchmodule') }
