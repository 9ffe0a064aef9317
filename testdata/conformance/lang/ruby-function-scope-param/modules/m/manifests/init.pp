class m {
  $who = 'class m'
  notify { m::greet('hello', 'a', 'b'): }
  notify { m::greet('hi'): }
}
