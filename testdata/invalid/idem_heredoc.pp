$a = 1
@(END)
  x
  END
notice($a)
