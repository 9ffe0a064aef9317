$global = 'G'
class user_of_define {
  $local = 'L'
  show { 'one': }
}
define show() {
  notify { "${title}: local=[${local}] global=[${global}]": }
}
include user_of_define
