define mydef($p = 1) { notify { "in-${title}": } }
node default {
  notify { 'types': message => [Integer, /re/, default, File['/x'], 1e20, "a<b>&\u00e9\t\"/"] }
  mydef { 'd1': p => 2 }
  @notify { 'virt': }
  @@notify { 'exp': }
  notify { 'rel': before => [File['/a'], Notify['types']], subscribe => Notify['types'], tag => ['x', 'Y'] }
  file { '/a': }
}
