$x = "a ${foo b"
