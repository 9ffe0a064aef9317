class a {
  notify { 'a': }
}
class a::d {
  notify { 'a::d from init.pp': }
}
