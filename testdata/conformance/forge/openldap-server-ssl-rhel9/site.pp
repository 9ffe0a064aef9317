class { 'openldap::server':
  ldaps_ifs => ['/'],
  ssl_cert  => '/etc/openldap/ssl/slapd.pem',
  ssl_key   => '/etc/openldap/ssl/slapd.key',
}

openldap::server::database { 'dc=example,dc=com':
  directory => '/var/lib/ldap',
  rootdn    => 'cn=admin,dc=example,dc=com',
  rootpw    => 'secret',
}

openldap::server::access { '0 on dc=example,dc=com':
  what   => 'attrs=userPassword,shadowLastChange',
  access => [
    'by dn="cn=admin,dc=example,dc=com" write',
    'by anonymous auth',
    'by self write',
    'by * none',
  ],
}
