package { 'linux-image-amd64':
  ensure => installed,
}

reboot { 'after':
  subscribe => Package['linux-image-amd64'],
}

reboot { 'after_run':
  apply => finished,
}
