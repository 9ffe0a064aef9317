class a::b {
  notify { 'a::b': }
}
class a::b::c {
  notify { 'a::b::c from b.pp': }
}
define a::b::thing() {
  notify { "thing ${title}": }
}
