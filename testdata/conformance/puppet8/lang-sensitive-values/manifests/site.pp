$secret = Sensitive('hunter2')
notify { "shown=${secret}": }
user { 'svc': ensure => present, password => $secret }
$plain = $secret.unwrap
notify { "unwrapped-length=${plain.length}": }
