$x = class
