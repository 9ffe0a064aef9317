notify { 'x': message => concat_merge({ 'a' => 1 }, [1]) }
