define web::vhost() {
  notify { "define title=${title} name=${name} module=${module_name}": }
}
