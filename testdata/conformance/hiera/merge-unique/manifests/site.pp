$p = lookup('packages', Array[String], 'unique')
notify { "p=${p}": }
