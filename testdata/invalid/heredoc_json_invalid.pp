$x = @(END:json)
  {not json
  END
