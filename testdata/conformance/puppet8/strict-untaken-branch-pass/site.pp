if false {
  notify { "never ${nope}": }
}
$x = true ? { true => "yes", default => $other }
notify { "x=${x}": }
