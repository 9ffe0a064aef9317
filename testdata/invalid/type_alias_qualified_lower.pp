type foo::Bar = Integer
