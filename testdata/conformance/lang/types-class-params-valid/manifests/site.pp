class typed(
  Integer[1, 10] $count,
  Enum['low', 'high'] $level,
  Pattern[/^v\d+$/] $version,
  Optional[String] $maybe,
  Variant[Integer, Boolean] $flag,
  Array[String] $names,
  Hash[String, Integer] $ports,
  Struct[{name => String, Optional[size] => Integer}] $spec,
  Tuple[String, Integer] $pair,
) {
  notify { "count=${count} level=${level} version=${version} maybe=[${maybe}] flag=${flag}": }
  notify { "names=${names} ports=${ports} spec=${spec} pair=${pair}": }
}
class { 'typed':
  count   => 3,
  level   => 'high',
  version => 'v12',
  maybe   => undef,
  flag    => false,
  names   => ['a', 'b'],
  ports   => {'http' => 80},
  spec    => {'name' => 'disk'},
  pair    => ['x', 1],
}
