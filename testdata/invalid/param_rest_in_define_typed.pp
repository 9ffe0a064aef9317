define a(String *$x) {}
