contain openssl

openssl::certificate::x509 { 'hostcert':
  commonname => $facts['networking']['fqdn'],
}
