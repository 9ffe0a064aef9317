# Sample calls of stdlib::has_interface_with; each result is a notify message.
notify { 'call 1: stdlib::has_interface_with(\'eth0\')':
  message => stdlib::has_interface_with('eth0'),
}
notify { 'call 2: stdlib::has_interface_with(\'ipaddress\', \'10.0.0.11\')':
  message => stdlib::has_interface_with('ipaddress', '10.0.0.11'),
}
notify { 'call 3: stdlib::has_interface_with(\'network\', \'10.0.0.0\')':
  message => stdlib::has_interface_with('network', '10.0.0.0'),
}
notify { 'call 4: stdlib::has_interface_with(\'wlan0\')':
  message => stdlib::has_interface_with('wlan0'),
}
