$x = @(END
  text
  END
