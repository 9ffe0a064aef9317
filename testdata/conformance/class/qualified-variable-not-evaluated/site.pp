class config {
  $port = 8080
}
notify { "port='${config::port}'": }
include config
