$r = SemVerRange('1.2.3.4')
notify { "r=${r}": }
