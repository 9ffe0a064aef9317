notify { 'x': message => ini({ 'a' => {} }, 'b') }
