$x = define a() {}
