notify { 'x': message => ensure_service('maybe') }
