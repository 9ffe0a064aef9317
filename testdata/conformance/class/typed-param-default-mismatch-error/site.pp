class app (Integer $port = 'eighty') {
  notify { "port=${port}": }
}
include app
