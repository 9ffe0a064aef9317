include apt
apt::source { 'puppetlabs':
  location => 'http://apt.puppetlabs.com',
  repos    => 'main',
  key      => {
    'name'   => 'puppetlabs.gpg',
    'source' => 'https://apt.puppetlabs.com/keyring.gpg',
  },
  include  => { 'src' => true },
}
apt::pin { 'puppetlabs':
  priority => 900,
  origin   => 'apt.puppetlabs.com',
}
