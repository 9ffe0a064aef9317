$v = 'V'
notify { 'heredoc':
  message => @("END"/tn$),
    a\tb\nc \$v=${v} \s stays
    | END
}
