class netcfg(Netcfg::Port $port, Netcfg::Mode $mode) {
  notify { "port=${port} mode=${mode}": }
}
