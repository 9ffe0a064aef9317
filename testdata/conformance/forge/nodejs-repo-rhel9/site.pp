class { 'nodejs':
  repo_version => '21',
}
