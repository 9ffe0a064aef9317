notify { 'call 1: plain ssh-rsa line':
  message => accounts_ssh_authorized_keys_line_parser('ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQFake alice@example.com'),
}
notify { 'call 2: options before the key':
  message => accounts_ssh_authorized_keys_line_parser('from="10.0.0.1",no-pty ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFake bob@example.com'),
}
notify { 'call 3: security key type, comment with spaces':
  message => accounts_ssh_authorized_keys_line_parser('sk-ssh-ed25519@openssh.com AAAAGnNrLXNzaC1lZDI1NTE5Fake my laptop key'),
}
notify { 'call 4: ecdsa with unicode comment':
  message => accounts_ssh_authorized_keys_line_parser('command="/bin/true" ecdsa-sha2-nistp256 AAAAE2VjZHNhFake jürgen@ünïcode'),
}
