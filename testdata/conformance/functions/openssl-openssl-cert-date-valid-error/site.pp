notify { 'missing file': message => openssl::cert_date_valid('/nonexistent/marionette/cert.pem') }
