if $x {
  notice(1)
