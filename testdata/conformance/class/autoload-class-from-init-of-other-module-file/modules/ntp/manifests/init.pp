class ntp {
  include ntp::install
  notify { 'ntp': }
}
