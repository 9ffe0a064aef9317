$v = [SemVer('1.10.0'), SemVer('1.9.0'), SemVer('1.2.3-rc1')]
notify { 'max': message => String(max($v[0], $v[1], $v[2])) }
notify { 'min': message => String(min($v[0], $v[1], $v[2])) }
notify { 'array max': message => String(max($v)) }
notify { 'array min': message => String(min($v)) }
notify { 'with block': message => String(max($v) |$a, $b| { compare(String($a), String($b)) }) }
notify { 'value': message => [SemVer('1.2.3'), SemVerRange('>=1.0.0')] }
