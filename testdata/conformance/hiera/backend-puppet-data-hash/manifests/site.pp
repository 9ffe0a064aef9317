include app
notify { 'only_in_yaml': message => lookup('only_in_yaml') }
