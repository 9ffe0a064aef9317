if $x =~ /abc {
  notice('y')
}
