$a = true
!$a
notice($a)
