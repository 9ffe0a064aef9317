$x = [1].Foo()
