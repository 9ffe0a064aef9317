$long = join(range(1, 30), ' ')
$d = {
  'plain'    => $long,
  'trailing' => "${long} ",
  'keep'     => "${long}\n\n",
  'lead'     => "  ${long}",
  'runs'     => 'a  b  c  d  e  f  g  h  i  j  k  l  m  n',
  'list'     => [$long, ['nested', "# ${long}"]],
  "key ${long}" => 'short',
}
notify { 'w20': message => stdlib::to_yaml($d, {'line_width' => 20}) }
notify { 'w40i4': message => stdlib::to_yaml($d, {'line_width' => 40, 'indentation' => 4}) }
notify { 'w3': message => stdlib::to_yaml(['abc def', 'ab'], {'line_width' => 3}) }
