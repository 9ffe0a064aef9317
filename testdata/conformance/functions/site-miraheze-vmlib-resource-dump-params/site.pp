define thing(String $a, Integer $b = 2, Optional[String] $c = undef, Array $d = []) {
  notify { "call ${title}": message => vmlib::resource::dump_params() }
}
thing { '1: defaults': a => 'x' }
thing { '2: all': a => 'y', b => 3, c => 'z', d => [1] }
class cls(String $p = 'q') {
  notify { 'call 3: class': message => vmlib::resource::dump_params() }
}
include cls
