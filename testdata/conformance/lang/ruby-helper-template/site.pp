$top = 'from top'
class { 'site':
  list => [1, 2, 3],
  h    => { 'b' => true, 'a' => undef, 'c' => 1.5 },
}
