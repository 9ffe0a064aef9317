$r = 'a' < 1
notify { "r=${r}": }
