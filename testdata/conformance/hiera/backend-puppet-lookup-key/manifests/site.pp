include app
notify { 'again': message => lookup('app::size') }
