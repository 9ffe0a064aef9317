$n = 2 * "2.5"
notify { "n=${n}": }
