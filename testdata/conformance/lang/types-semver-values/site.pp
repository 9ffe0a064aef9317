$a = SemVer('1.2.3')
$b = SemVer('1.10.0-rc.1+build.5')
$c = SemVer(2, 0, 0)
$d = SemVer(1, 2, 3, 'alpha')
$e = SemVer({ major => 3, minor => 1, patch => 4, prerelease => 'beta.2', build => 'x7' })
notify { 'strings': message => [String($a), String($b), "${c}", "${d}", "${e}"] }
notify { 'compare': message => [$a < $b, $b < $c, $d < $a, $a == SemVer('1.2.3'), $a != $c, $b >= $a, $a <= $a, $c > $e] }
notify { 'sorted': message => String(sort([$c, $a, $b, $d])) }
$r = SemVerRange('>=1.2.0 <2.0.0')
notify { 'range string': message => [String($r), String(SemVerRange('1.x')), String(SemVerRange('~1.2')), String(SemVerRange('^1.2.3')), String(SemVerRange('1.2.3 - 1.4.0')), String(SemVerRange('>=1.0.0 || <0.5.0'))] }
notify { 'range match': message => [$a =~ $r, $c =~ $r, $b =~ $r, '1.5.0' =~ $r, $a =~ SemVerRange('1.x'), $d =~ SemVerRange('>=1.0.0')] }
notify { 'instance': message => [$a =~ SemVer, $a =~ SemVer['>=2.0.0'], $c =~ SemVer['>=2.0.0'], $a =~ SemVer['1.x', '>=3.0.0'], '1.2.3' =~ SemVer, $r =~ SemVerRange] }
notify { 'types': message => [String(type($a)), String(type($r)), String(type($a, generalized))] }
notify { 'in resource': message => $b }
notify { 'range in resource': message => $r }
notify { 'max': message => String(max($a, $b)) }
