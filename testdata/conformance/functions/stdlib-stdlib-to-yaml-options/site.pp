$d = {'a' => [1, {'x' => [2, 3], 'y' => {'z' => 1}}], 'b' => {'c' => [[1, 2], []], 'd' => 'text'}, 'e' => "two\nlines\n"}
notify { 'i4': message => stdlib::to_yaml($d, {'indentation' => 4}) }
notify { 'i3': message => to_yaml($d, {indentation => 3}) }
notify { 'w': message => stdlib::to_yaml({'long' => join(range(1, 40), ' ')}, {line_width => -1}) }
notify { 'w2': message => stdlib::to_yaml({'long' => join(range(1, 40), ' ')}, {line_width => 200, 'unknown' => 1}) }
notify { 'default': message => stdlib::to_yaml({'long' => join(range(1, 40), ' ')}) }
