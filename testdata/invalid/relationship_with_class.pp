class a {} -> notify { 'x': }
