$m = [1, 2, 3, 4].map |$x| { if $x == 2 { next('two') } $x * 10 }
[1, 2, 3, 4].each |$x| {
  if $x == 3 { break() }
  notify { "each ${x}": }
}
notify { "m=${m}": }
