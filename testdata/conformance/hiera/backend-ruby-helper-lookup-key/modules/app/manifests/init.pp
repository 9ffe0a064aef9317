class app (String $color, String $region, Array $servers, String $loaded) {
  notify { 'color': message => $color }
  notify { 'region': message => $region }
  notify { 'servers': message => $servers }
  notify { 'loaded': message => $loaded }
}
