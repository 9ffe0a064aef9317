File['a'] -> define b() {}
