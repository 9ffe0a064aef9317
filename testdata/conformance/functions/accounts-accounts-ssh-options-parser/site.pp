notify { 'call 1: simple options':
  message => accounts_ssh_options_parser('no-pty,no-port-forwarding,no-X11-forwarding'),
}
notify { 'call 2: quoted commas':
  message => accounts_ssh_options_parser('from="10.0.0.1,10.0.0.2",command="/bin/echo hi"'),
}
notify { 'call 3: empty string':
  message => accounts_ssh_options_parser(''),
}
notify { 'call 4: single quotes and escapes':
  message => accounts_ssh_options_parser("environment='A=B,C',no-agent-forwarding,a\\,b"),
}
