$r = with(1, 2, 3) |$a, $b, $c| {
  $inner = 'hidden'
  $a + $b + $c
}
notify { "r=${r} inner=[${inner}]": }
