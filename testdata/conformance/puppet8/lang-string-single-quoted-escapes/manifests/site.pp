$x = 'X'
notify { 'sq':
  message => 'it\'s a \\ backslash, \n stays, $x stays, \q stays',
}
