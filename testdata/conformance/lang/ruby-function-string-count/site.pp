notify { 'letters': message => demo::count_chars('hello world', 'lo') }
notify { 'range': message => demo::count_chars('hello world', 'a-y') }
notify { 'negated': message => demo::count_chars('hello world', '^l') }
notify { 'intersection': message => demo::count_chars('hello world', 'lo', 'o') }
notify { 'escaped dash': message => demo::count_chars('a-b\\c', '\\-') }
notify { 'caret alone': message => demo::count_chars('a^b', '^') }
notify { 'multibyte': message => demo::count_chars('héllo', 'é') }
