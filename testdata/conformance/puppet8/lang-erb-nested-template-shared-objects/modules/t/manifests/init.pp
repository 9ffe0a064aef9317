class t {
  $items = ['a', 'b']
  file { '/tmp/shared': content => template('t/outer.erb') }
}
