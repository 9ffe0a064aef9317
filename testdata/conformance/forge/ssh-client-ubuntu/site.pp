class { 'ssh::client':
  storeconfigs_enabled => false,
  options              => {
    'Host *.example.com' => {
      'User'         => 'deploy',
      'IdentityFile' => '~/.ssh/deploy_ed25519',
    },
  },
}

ssh::client::config::user { 'alice':
  ensure  => present,
  options => {
    'Host *.alice.fr' => {
      'User' => 'alice',
    },
  },
}
