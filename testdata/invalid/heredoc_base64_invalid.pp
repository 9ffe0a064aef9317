$x = @(END:base64)
  !!!
  END
notice($x)
