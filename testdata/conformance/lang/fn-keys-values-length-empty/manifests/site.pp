$h = {'a' => 1, 'b' => 2}
notify { "keys=${keys($h)} values=${values($h)} len=${length($h)} slen=${length('hello')} alen=${[1, 2, 3].length}": }
notify { "empty: ''=${empty('')} []=${empty([])} {}=${empty({})} 'x'=${empty('x')} undef=${empty(undef)}": }
