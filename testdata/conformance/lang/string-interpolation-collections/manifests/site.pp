$a = ['x', 1, true, undef, [2]]
$h = {'name' => 'web', 'port' => 80, 'list' => ['a']}
$u = undef
notify { 'collections':
  message => "a=${a} h=${h} u=[${u}] empty=${[]} emptyh=${{}}",
}
