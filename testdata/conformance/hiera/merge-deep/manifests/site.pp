$u = lookup('users', {'merge' => {'strategy' => 'deep', 'merge_hash_arrays' => true}})
$plain = lookup('users', Hash, 'deep')
notify { "u=${u}": }
notify { "plain=${plain}": }
