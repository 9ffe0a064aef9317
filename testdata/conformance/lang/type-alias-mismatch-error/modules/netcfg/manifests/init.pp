class netcfg(Netcfg::Port $port) {
  notify { "port=${port}": }
}
