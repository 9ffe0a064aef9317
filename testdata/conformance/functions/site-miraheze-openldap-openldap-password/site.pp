notify { 'call 1: default SSHA': message => openldap_password('secret') }
notify { 'call 2: SHA and MD5': message => [openldap_password('secret', 'SHA'), openldap_password('secret', 'MD5')] }
notify { 'call 3: SMD5': message => openldap_password('secret', 'SMD5') }
notify { 'call 4: CRYPT': message => openldap_password('secret', 'CRYPT') }
