class a {
  notify { 'x': }
