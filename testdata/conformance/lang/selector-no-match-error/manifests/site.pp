$x = 'c'
$y = $x ? {
  'a' => 1,
  'b' => 2,
}
notify { "y=${y}": }
