notify { 'pg': message => postgresql::postgresql_password('u', Sensitive('pw'), false, 'scram-sha-256', 'salt') }
notify { 'pg-md5': message => postgresql::postgresql_password('u', 'pw') }
notify { 'docker': message => docker_run_flags({hostname => 'h', env => ['A=1', 'B=two words'], extra_params => ['--rm'], username => 'bob', dns => ['8.8.8.8'], labels => ['a=b c'], net => ['n1','n2'], read_only => true}) }
notify { 'secrets': message => docker_secrets_flags({ensure => 'present', secret_name => 's1', label => ['a=b'], secret_path => '/tmp/s'}) }
