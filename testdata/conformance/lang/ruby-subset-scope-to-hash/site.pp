class th {
  $greeting = 'hello'
  $count = 3
  file { '/tmp/to_hash': content => template('th/loop.erb') }
}
include th
