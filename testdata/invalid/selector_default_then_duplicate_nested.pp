$y = $x ? {
  'a' => $z ? { default => 1, default => 2 },
  default => 3,
}
