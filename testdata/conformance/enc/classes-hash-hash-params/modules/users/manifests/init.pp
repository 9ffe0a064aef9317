class users (Hash $accounts = {}) {
  $accounts.each |$name, $attrs| {
    user { $name:
      ensure => present,
      uid    => $attrs['uid'],
      shell  => $attrs['shell'],
    }
  }
}
