class app (String $color, String $size, String $where) {
  notify { 'color': message => $color }
  notify { 'size': message => $size }
  notify { 'where': message => $where }
}
