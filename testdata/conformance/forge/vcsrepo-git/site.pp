vcsrepo { '/srv/repo':
  ensure   => present,
  provider => git,
  source   => 'https://github.com/example/repo.git',
  revision => 'main',
}

vcsrepo { '/srv/bare':
  ensure   => bare,
  provider => git,
}
