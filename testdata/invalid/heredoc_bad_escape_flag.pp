$x = @(END/z)
  text
  END
