type Netcfg::Port = Integer[1, 65535]
