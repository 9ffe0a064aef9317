$values = [42, 'text', [1, 2], 3.5]
$values.each |$v| {
  case $v {
    Integer: { notify { "int ${v}": } }
    String: { notify { "str ${v}": } }
    [1, 2]: { notify { "the-array ${v}": } }
    default: { notify { "other ${v}": } }
  }
}
