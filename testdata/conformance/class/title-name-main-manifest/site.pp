class local::thing {
  notify { "title=${title} name=${name} module='${module_name}'": }
}
include local::thing
