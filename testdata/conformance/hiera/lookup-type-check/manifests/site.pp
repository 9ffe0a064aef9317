$p = lookup('port', Integer)
notify { "p=${p}": }
$n = lookup('name', Integer)
