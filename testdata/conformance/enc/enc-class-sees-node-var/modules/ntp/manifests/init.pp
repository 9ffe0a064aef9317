class ntp {
  notify { "ntp uses ${ntpserver}": }
}
