$r = ['a'].map |Integer $x| { $x + 1 }
notify { "r=${r}": }
