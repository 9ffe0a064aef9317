$u = lookup('users', {'merge' => {'strategy' => 'deep', 'knockout_prefix' => '--'}})
$p = lookup('pkgs', {'merge' => {'strategy' => 'deep', 'knockout_prefix' => '--'}})
notify { "u=${u}": }
notify { "p=${p}": }
notify { "carol-in=${'carol' in $u} carol-type=${type($u['carol'])}": }
