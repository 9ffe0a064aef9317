$v = '7'
if $v < 8 {
  notify { 'old': }
}
