class c {
  $x = 1
  sv_set('x', 2)
}
include c
