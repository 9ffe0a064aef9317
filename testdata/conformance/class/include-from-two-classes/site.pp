class common {
  notify { 'common': }
}
class web {
  include common
}
class db {
  include common
}
include web
include db
