# Sample calls of batch_escape; each result is a notify message.
notify { 'call 1: batch_escape(\'foo bar\')':
  message => batch_escape('foo bar'),
}
notify { 'call 2: batch_escape(\'"quoted" %PATH%\')':
  message => batch_escape('"quoted" %PATH%'),
}
notify { 'call 3: batch_escape(\'\')':
  message => batch_escape(''),
}
notify { 'call 4: batch_escape(\'héllo & <b>\')':
  message => batch_escape('héllo & <b>'),
}
