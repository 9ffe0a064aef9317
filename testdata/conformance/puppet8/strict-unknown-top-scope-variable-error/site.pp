class web {
  notify { "t":
    message => "top=${::nope}",
  }
}
include web
