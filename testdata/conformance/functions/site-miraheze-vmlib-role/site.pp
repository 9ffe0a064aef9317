class role::demo::web {
  notify { "call 1: inside ${::_role}": message => $::_roles }
}
role('::demo::web')
notify { 'call 2: top': message => [$_role, $_roles] }
