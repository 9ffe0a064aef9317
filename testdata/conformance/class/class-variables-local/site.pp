class config {
  $port = 8080
}
include config
notify { "unqualified='${port}' qualified=${config::port}": }
