# Sample calls of stdlib::sort_by; each result is a notify message.
notify { 'call 1: stdlib::sort_by([2, 3, 1]) |$x| { $x }':
  message => stdlib::sort_by([2, 3, 1]) |$x| { $x },
}
notify { 'call 2: stdlib::sort_by([\'aaa\', \'b\', \'cc\']) |$x| { $x.length }':
  message => stdlib::sort_by(['aaa', 'b', 'cc']) |$x| { $x.length },
}
notify { 'call 3: stdlib::sort_by(\'cab\') |$c| { $c }':
  message => stdlib::sort_by('cab') |$c| { $c },
}
notify { 'call 4: stdlib::sort_by({\'b\' => 1, \'a\' => 2}) |$kv| { $kv[0] }':
  message => stdlib::sort_by({'b' => 1, 'a' => 2}) |$kv| { $kv[0] },
}
notify { 'call 5: stdlib::sort_by([]) |$x| { $x }':
  message => stdlib::sort_by([]) |$x| { $x },
}
