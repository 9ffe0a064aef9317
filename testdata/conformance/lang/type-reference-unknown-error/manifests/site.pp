class app (Nosuch::Alias $x = 'a') { notify { $x: } }
include app
