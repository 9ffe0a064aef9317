class { 'openssl':
  package_ensure         => latest,
  ca_certificates_ensure => latest,
}
