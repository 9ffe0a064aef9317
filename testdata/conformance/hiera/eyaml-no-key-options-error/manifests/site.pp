notify { 'password':
  message => lookup('password'),
}
