notify { 'x': }
Notify['x'] { message => 'set-by-override' }
