# The web module.
class web(Web::Port $port = 80) {
  notify { "web ${port} ${web::double($port)}": }
}
define web::site() {
  notify { "site ${title}": }
}
