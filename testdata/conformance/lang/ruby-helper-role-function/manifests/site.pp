node default {
  include site
  notify { "top: ${::role} ${role_tier}": }
}
