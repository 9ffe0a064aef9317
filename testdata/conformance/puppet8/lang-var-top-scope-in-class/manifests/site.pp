$colour = 'red'
$shape = 'round'
class paint {
  $colour = 'blue'
  notify { "local=${colour} top=${::colour} inherited=${shape}": }
}
include paint
