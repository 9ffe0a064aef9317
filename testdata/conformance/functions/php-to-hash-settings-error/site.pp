notify { 'array argument': message => to_hash_settings(['a']) }
