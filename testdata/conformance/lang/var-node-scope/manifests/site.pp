node default {
  $role = 'webserver'
  include report
}
class report {
  notify { "role=[${role}]": }
}
