notify { 'x': message => 'original' }
Notify['x'] { message => 'changed' }
