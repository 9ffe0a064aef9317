node /^www(\d+)/ {
  notify { "node sees ${1}": }
  include web
}
class web {
  notify { "class sees '${1}'": }
}
