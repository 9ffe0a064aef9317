class app ($port) {
  notify { "port=${port}": }
}
include app
