$x = 'X'
notify { 'heredoc':
  message => @(END),
    line one $x
    line two \n stays
    END
}
