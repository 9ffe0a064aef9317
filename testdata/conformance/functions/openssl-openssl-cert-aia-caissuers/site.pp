notify { 'call 1: missing file': message => [openssl::cert_aia_caissuers('/nonexistent/marionette/cert.pem')] }
