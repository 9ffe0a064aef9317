$a = [1, 'two', [3, 4], {'five' => 5},]
$h = {
  zeta  => 'last-key-first',
  'alpha' => [1, 2],
  3 => 'int key',
}
notify { 'arr': message => $a }
notify { 'hash': message => $h }
notify { "keys=${keys($h)}": }
