function pairs(*$args) { $args.map |$a| { "${a}" }.join(';') }
$h = { 'env_reset' => '', 'mailto' => 'root' }
$s = 'one'
notify { 'hash':
  message => inline_template("<%= scope.call_function('pairs', @h) %>"),
}
notify { 'string':
  message => inline_template("<%= scope.call_function('pairs', @s) %>"),
}
notify { 'array':
  message => inline_template("<%= scope.call_function('pairs', [1, [2, 3]]) %>"),
}
