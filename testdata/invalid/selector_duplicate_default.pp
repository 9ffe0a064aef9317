$y = $x ? {
  default => 1,
  default => 2,
}
