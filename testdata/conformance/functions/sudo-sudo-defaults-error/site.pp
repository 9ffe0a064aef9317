notify { 'triple': message => sudo::defaults(['a', 'b', 'c']) }
