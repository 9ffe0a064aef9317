notify { 'bad line':
  message => accounts_ssh_authorized_keys_line_parser('not a key line'),
}
