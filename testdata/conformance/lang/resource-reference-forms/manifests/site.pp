notify { ['a', 'b', 'c']: }
notify { 'ref1': require => Notify['a', 'b'] }
notify { 'ref2': require => Resource['notify', 'c'] }
$t = Notify['a']
notify { "ref=${t} type=${type($t)}": }
