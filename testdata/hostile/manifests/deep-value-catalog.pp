# expect: 1 MaxValueDepth
# A value nested a million deep, built by a loop: every walk of it is recursive.
notify { "x": message => 1000000.reduce([]) |$m, $i| { [$m] } }
