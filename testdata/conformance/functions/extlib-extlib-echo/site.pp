notify { 'call 1: with comment': message => [extlib::echo({ 'a' => 1 }, 'my hash')] }
notify { 'call 2: without comment': message => [extlib::echo([1, 'two', undef])] }
