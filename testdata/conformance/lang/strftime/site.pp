$t = Timestamp('2016-08-24T12:13:14.123456789 UTC')
$s = Timespan({ days => 3, hours => 4, minutes => 5, seconds => 6, milliseconds => 7 })
$formats = {
  'stamp'   => strftime($t, '%Y-%m-%d %H:%M:%S.%L %N %3N %z %:z %Z %A %a %B %b %j %e %k %l %p %P %s %u %w %U %W %V %G %g %C %y'),
  'compose' => strftime($t, '%c|%D|%F|%v|%T|%r|%R|%%|%-d|%_m|%^a|%#b|%#p|%10A|%-y|%q|%Q|%+'),
  'zones'   => [strftime($t, '%F %T %z', 'CET'), strftime($t, '%H:%M %:z', '-05:00'), strftime($t, '%H %z', '+1'), strftime($t, '%H %z', 'PST')],
  'method'  => Integer($t.strftime('%s')) - Integer(Timestamp('2001-01-01').strftime('%s')),
  'span'    => [strftime($s, '%D-%H:%M:%S.%L'), strftime($s, '%H:%M:%S'), strftime($s, '%M|%S|%L|%N|%-N|%3N|%_H|%-H'), strftime($s, '%_5S|%05M|%-D')],
  'neg'     => strftime(Timespan(-90), '%M:%S'),
}
$formats.each |$k, $v| {
  notify { $k: message => String($v) }
}
