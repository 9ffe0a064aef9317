$t = Timestamp('2020-01-01T00:00:00Z')
notify { 'd': message => Deferred('mysql::password', ['x']) }
notify { 't': message => $t }
notify { 's': message => Timespan({hours => 1}) }
notify { 'b': message => Binary('aGVsbG8=') }
notify { 'nested': message => {'t' => $t, 's' => Timespan(2), 'b' => Binary('hi', '%s'), 'd' => Deferred('x', [Deferred('y')]), 'a' => [Deferred('z')]} }
notify { "1 ${[$t, Timespan(1.5), Timespan(0.123), Timespan(-90061), Binary('aGk=')]}": }
notify { "2 ${Deferred('x')} ${Deferred('x', [1, 'a'])} ${[Deferred('y')]}": }
notify { "3 ${Timestamp('2020-01-01')} ${Timestamp('2020-01-01T10:11:12.5+02:00')} ${Timestamp('2020-01-01 10:11:12')} ${Timestamp(1577836800)} ${Timestamp(1577836800.5)}": }
notify { "4 ${Timespan(90)} ${Timespan('2-03:04:05')} ${Timespan('03:04:05')} ${Timespan(1, 2, 3, 4)} ${Timespan(1, 2, 3, 4, 5, 6, 7)} ${Timespan({hours => 1, negative => true})} ${Timespan({milliseconds => 1500})}": }
notify { "5 ${Binary([104, 105])} ${Binary('a-_b', '%u')} ${Binary('hi', '%s')} ${Binary('aGk=', '%B')}": }
notify { "6 ${Timespan(2) == Timespan(2)} ${Timestamp('2020-01-01T00:00:00Z') == $t} ${Binary('hi', '%s') == Binary('aGk=')} ${Binary('hi', '%s') =~ Binary} ${Deferred('x') =~ Deferred} ${$t =~ Timestamp} ${Timespan(1) =~ Timespan} ${$t =~ Scalar}": }
