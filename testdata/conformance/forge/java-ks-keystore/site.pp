java_ks { 'puppetca:truststore':
  ensure       => latest,
  certificate  => '/etc/puppetlabs/puppet/ssl/certs/ca.pem',
  target       => '/tmp/forge-a/truststore.jks',
  password     => 'changeit',
  trustcacerts => true,
}
java_ks { 'broker.example.com:/tmp/forge-a/broker.ks':
  ensure      => latest,
  certificate => '/etc/puppetlabs/puppet/ssl/certs/broker.example.com.pem',
  private_key => '/etc/puppetlabs/puppet/ssl/private_keys/broker.example.com.pem',
  password    => 'puppet',
}
