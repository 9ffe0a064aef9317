$v = SemVer('1.2')
notify { "v=${v}": }
