$args = ['%s-%s', 'a', 'b']
$s = sprintf(*$args)
$allowed = ['red', 'green']
$colour = 'green'
case $colour {
  *$allowed: { $verdict = 'allowed' }
  default: { $verdict = 'denied' }
}
notify { "s=${s} verdict=${verdict}": }
