class profile::web(Integer $port = 80) {
  notify { "port=${port}": }
}
