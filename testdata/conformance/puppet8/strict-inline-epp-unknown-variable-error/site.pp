notify { 'x':
  message => inline_epp('v=<%= $nope %>'),
}
