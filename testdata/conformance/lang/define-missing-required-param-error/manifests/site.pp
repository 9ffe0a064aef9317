define needs(String $value) { notify { $value: } }
needs { 'x': }
