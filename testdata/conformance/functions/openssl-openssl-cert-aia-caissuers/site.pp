notify { 'call 1: missing file': message => [openssl::cert_aia_caissuers('/nonexistent/marionette/cert.pem')] }
notify { 'call 2: a root CA without extensions': message => [openssl::cert_aia_caissuers("${get_module_path('archive')}/lib/puppet_x/bodeco/cacert.pem")] }
