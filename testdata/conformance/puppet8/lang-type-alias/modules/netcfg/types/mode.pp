type Netcfg::Mode = Enum['tcp', 'udp']
