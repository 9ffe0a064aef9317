class ntp ($ntpserver = 'pool.ntp.org', $iburst = false) {
  file { '/tmp/marionette-ntp.conf':
    ensure  => file,
    content => "server ${ntpserver} iburst=${iburst}\n",
  }
}
