$outer = [{ 'alias' => '/x', 'path' => '/y' }]
class { 't': list => $outer }
notify { "outer=${outer}": }
t::d { ['a', 'b']: }
$top = ['z']
$q = inline_template("<% @top.push('w'); scope['::top'] << 'v' %>")
notify { "top=${top}": }
