class { 'mysql::server':
  root_password => 'strongpassword',
}
class { 'mysql::server::backup':
  backupuser     => 'backup',
  backuppassword => 'backuppass',
  backupdir      => '/var/backups/mysql',
  backuprotate   => 7,
}
