yumrepo { 'puppetrepo-products':
  ensure   => 'present',
  descr    => 'Puppet Labs Products El 9 - $basearch',
  baseurl  => 'http://myownmirror',
  gpgkey   => 'http://myownmirror',
  enabled  => '1',
  gpgcheck => '1',
  target   => '/etc/yum.repo.d/puppetlabs.repo',
}

yumrepo { 'epel-local':
  baseurl  => 'http://mirror.example.com/epel/9/$basearch',
  enabled  => true,
  gpgcheck => false,
  exclude  => ['kernel*', 'systemd*'],
}
