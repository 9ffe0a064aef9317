define t::d ($l = []) {
  $x = inline_template("<% @l << @title %>")
  notify { "d ${title} l=${l}": }
}
