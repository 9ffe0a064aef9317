class apache::mod {
  notify { "title=${title} name=${name} module=${module_name}": }
}
