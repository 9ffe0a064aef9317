$x = @(END)
  some text
notice($x)
