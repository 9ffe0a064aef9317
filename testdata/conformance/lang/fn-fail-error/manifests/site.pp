if $facts['os']['family'] == 'Debian' {
  fail('Debian is not supported by this module')
}
notify { 'unreachable': }
