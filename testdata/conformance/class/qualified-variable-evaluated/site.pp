class config {
  $port = 8080
}
include config
notify { "port=${config::port}": }
