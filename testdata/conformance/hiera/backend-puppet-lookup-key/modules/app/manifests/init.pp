class app (String $color, String $size, String $where, Array $list) {
  notify { 'color': message => $color }
  notify { 'size': message => $size }
  notify { 'where': message => $where }
  notify { 'list': message => $list }
}
