node /^p8/ {
  include profile::puppet8
}
node default {
  include profile::base
  if $trusted['extensions']['pp_role'] == 'db' {
    include profile::db
  }
}
