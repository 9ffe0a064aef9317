notify { 'array argument': message => deep_implode(['a']) }
