# Sample calls of ensure_packages; each result is a notify message.
notify { 'call 1: ensure_packages([\'vim\', \'git\'])':
  message => ensure_packages(['vim', 'git']),
}
notify { 'call 2: ensure_packages({\'curl\' => {\'ensure\' => \'present\'}})':
  message => ensure_packages({'curl' => {'ensure' => 'present'}}),
}
notify { 'call 3: ensure_packages(\'git\', {\'ensure\' => \'present\'})':
  message => ensure_packages('git', {'ensure' => 'present'}),
}
