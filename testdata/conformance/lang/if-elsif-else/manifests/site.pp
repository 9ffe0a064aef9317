$n = 15
if $n > 20 {
  $size = 'big'
} elsif $n > 10 {
  $size = 'medium'
} else {
  $size = 'small'
}
if '' { $empty = 'truthy' } else { $empty = 'falsy' }
if undef { $u = 'truthy' } else { $u = 'falsy' }
notify { "size=${size} empty-string=${empty} undef=${u}": }
