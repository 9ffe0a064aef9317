notify { 'margin':
  message => @(END),
      indented by four
        six keeps two
      | END
}
notify { 'trimmed':
  message => @(END),
    no trailing newline
    |- END
}
