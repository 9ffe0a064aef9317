$a = lookup('profile::web::settings')
$b = lookup('profile::db::settings')
notify { "a=${a}": }
notify { "b=${b}": }
