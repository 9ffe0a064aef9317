notify { 'call 1: README example':
  message => collectd_convert_processes([{ 'name' => 'foo', 'regex' => '.*' }, { 'name' => 'bar', 'regex' => '[0-9]+' }, 'alone']),
}
notify { 'call 2: hash passes through':
  message => collectd_convert_processes({ 'sshd' => { 'regex' => 'sshd' } }),
}
notify { 'call 3: empty array':
  message => collectd_convert_processes([]),
}
notify { 'call 4: strings only':
  message => collectd_convert_processes(['nginx', 'postgres']),
}
