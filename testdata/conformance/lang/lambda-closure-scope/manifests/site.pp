class closure {
  $prefix = 'srv'
  [1, 2].each |$n| {
    $local = "${prefix}-${n}"
    notify { $local: }
  }
  notify { "after local=[${local}] n=[${n}]": }
}
include closure
