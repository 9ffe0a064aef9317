$x = @(END:json:yaml)
  {}
  END
