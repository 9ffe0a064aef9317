and $x
