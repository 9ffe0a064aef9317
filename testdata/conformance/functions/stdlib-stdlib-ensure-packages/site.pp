# Sample calls of stdlib::ensure_packages; each result is a notify message.
notify { 'call 1: stdlib::ensure_packages([\'vim\', \'git\'])':
  message => stdlib::ensure_packages(['vim', 'git']),
}
notify { 'call 2: stdlib::ensure_packages({\'curl\' => {\'ensure\' => \'latest\'}}, {\'ensure\' => \'present\'})':
  message => stdlib::ensure_packages({'curl' => {'ensure' => 'latest'}}, {'ensure' => 'present'}),
}
notify { 'call 3: stdlib::ensure_packages(\'git\')':
  message => stdlib::ensure_packages('git'),
}
notify { 'call 4: stdlib::ensure_packages([\'htop\'], {\'ensure\' => \'absent\'})':
  message => stdlib::ensure_packages(['htop'], {'ensure' => 'absent'}),
}
