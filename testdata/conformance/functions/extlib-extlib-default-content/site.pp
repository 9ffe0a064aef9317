$verbose = 'true'
notify { 'call 1: content wins': message => extlib::default_content('given content', 'apache/ports_header.epp') }
notify { 'call 2: epp template': message => extlib::default_content(undef, 'apache/ports_header.epp') }
notify { 'call 3: empty content, erb template': message => extlib::default_content('', 'collectd/plugin/vmem.conf.erb') }
notify { 'call 4: neither gives undef': message => [extlib::default_content(undef, undef), extlib::default_content('', '')] }
