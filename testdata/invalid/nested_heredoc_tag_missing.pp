$x = @()
  text
  
