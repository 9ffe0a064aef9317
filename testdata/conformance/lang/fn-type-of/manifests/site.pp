notify { "a=${type(1)} b=${type('abc')} c=${type([1, 'a'])} d=${type({'k' => 1.5})} e=${type(true)} f=${type(undef)}": }
notify { "gen=${type('abc', 'generalized')} r=${type(/x/)}": }
