$name_v = 'world'
$list = ['a', 'b']
notify { 'heredoc':
  message => @("END"),
    hello ${name_v}
    count=${list.length} tab=[\t]
    | END
}
