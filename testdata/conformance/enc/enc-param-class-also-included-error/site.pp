node default {
  include ntp
}
