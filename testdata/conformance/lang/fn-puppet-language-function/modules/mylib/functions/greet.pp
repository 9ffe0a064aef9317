function mylib::greet(String $who, String $greeting = 'hello') {
  "${greeting}, ${who}"
}
