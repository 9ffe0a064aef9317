$s = [Timespan(864000), Timespan(60), Timespan(172800)]
notify { 'timespan max': message => String(max(*$s)) }
notify { 'timespan min': message => String(min($s)) }
$t = [Timestamp('2024-01-02T00:00:00Z'), Timestamp('2023-06-01T12:00:00Z')]
notify { 'timestamp max': message => String(max(*$t)) }
notify { 'timestamp min': message => String(min($t)) }
notify { 'numbers': message => [max(1, 5, 3), min([4, 2, 9]), max('b', 'a')] }
