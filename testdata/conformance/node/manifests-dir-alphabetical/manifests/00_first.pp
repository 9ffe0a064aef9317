notify { "00_first sees '${greeting}'": }
