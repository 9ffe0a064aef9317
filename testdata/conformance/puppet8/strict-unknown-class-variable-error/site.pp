class web {
  $host = "h"
}
include web
notify { "port=${web::port}": }
