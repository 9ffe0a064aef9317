class profile::puppet8 {
  notify { 'pattern':
    message => /ab+c/,
  }
  if $facts['networking']['hostname'] == 'p8b' {
    notify { 'unknown':
      message => "value: ${not_set_anywhere}",
    }
  }
}
