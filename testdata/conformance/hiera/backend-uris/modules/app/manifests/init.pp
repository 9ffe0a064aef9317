class app (String $color, String $size, String $shape) {
  notify { 'color': message => $color }
  notify { 'size': message => $size }
  notify { 'shape': message => $shape }
}
