class ntp(Array[String] $servers = ['pool.ntp.org'], Integer $maxpoll = 10) {
  notify { "servers=${servers} maxpoll=${maxpoll}": }
}
