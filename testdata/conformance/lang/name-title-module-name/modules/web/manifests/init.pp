class web {
  notify { "class title=${title} name=${name} module=${module_name}": }
}
