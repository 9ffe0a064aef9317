$a = Integer('twelve')
notify { "a=${a}": }
