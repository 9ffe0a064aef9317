$facts = {}
notify { 'x': }
