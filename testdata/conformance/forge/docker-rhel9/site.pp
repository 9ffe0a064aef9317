class { 'docker':
  log_driver => 'json-file',
  log_opt    => ['max-size=10m', 'max-file=3'],
}
docker::registry { 'registry.example.com:5000':
  username => 'deploy',
  password => 'secret',
}
