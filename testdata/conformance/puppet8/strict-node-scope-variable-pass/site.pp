node default {
  $role = "web"
  include app
}
class app {
  notify { "role=${role}": }
}
