class t {
  $x = 'in class'
  notify { 'file': message => template('t/struct.erb') }
}
$x = 'top'
include t
notify { 'inline': message => inline_template('<%= Struct.new(:a).new(@x).a %>') }
