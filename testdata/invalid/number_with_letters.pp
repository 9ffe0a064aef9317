$x = 123abc
