class webserver(Integer $port = 1) {
  notify { "port=${port}": }
}
