notify { 'one argument': message => concat_merge({ 'a' => [1] }) }
