class base { notify { 'base': } }
