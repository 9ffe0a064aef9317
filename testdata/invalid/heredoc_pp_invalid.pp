$x = @(END:pp)
  class {
  END
notice($x)
