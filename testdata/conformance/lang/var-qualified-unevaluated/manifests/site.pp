class neverdeclared {
  $v = 'value'
}
notify { "v=[${neverdeclared::v}]": }
