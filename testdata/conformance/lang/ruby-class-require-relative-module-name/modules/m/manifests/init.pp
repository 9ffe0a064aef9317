class m (String $path, String $other = 'unset') {
  notify { "path=${path} other=${other} twice=${m::twice('ab')}": }
  notify { "lookup=${lookup('m::other')}": }
  $x = 'L'
  notify { "local: ${lookup('m::local')}": }
}
