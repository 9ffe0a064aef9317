class t ($list = [], $opts = { 'a' => 1 }, $path = '/usr/lib/cgi-bin') {
  $names = ['one']
  $n = template('t/append.erb')
  notify { "count=${n}": }
  notify { "list=${list}": }
  notify { "opts=${opts}": }
  notify { "names=${names}": }
  notify { 'show':
    message => template('t/show.erb'),
  }
  if $list != [] {
    notify { 'list is no longer empty': }
  }
}
