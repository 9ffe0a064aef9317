class holder {
  notify { 'x': }
}
include holder
Notify['x'] { message => 'changed' }
