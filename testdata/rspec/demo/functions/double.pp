# Twice the number given.
function demo::double(Numeric $n) >> Numeric {
  $n * 2
}
