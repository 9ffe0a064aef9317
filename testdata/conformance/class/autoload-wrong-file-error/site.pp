include apache::mod
