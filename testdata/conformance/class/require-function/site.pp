class base {
  notify { 'base': }
}
class app {
  require base
  notify { 'app': }
}
include app
