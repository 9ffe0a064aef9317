notify { "d=${defined('$nope')}": }
$v = 1
notify { "e=${defined('$v')}": }
