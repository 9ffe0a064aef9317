$n = "1" + 1
notify { "n=${n}": }
