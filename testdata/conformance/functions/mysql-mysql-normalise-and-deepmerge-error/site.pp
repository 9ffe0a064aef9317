notify { 'array argument': message => mysql::normalise_and_deepmerge({ 'a' => 1 }, ['b']) }
