notify { "min=${min(3, 1, 2)} max=${max(3, 10, 2)} fmax=${max(1.5, 1)} smin=${min('b', 'a', 'c')}": }
