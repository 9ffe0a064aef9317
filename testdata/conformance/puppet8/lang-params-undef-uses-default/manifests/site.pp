class withdefaults(String $a = 'default-a', Optional[String] $b = undef, $c = 'default-c') {
  notify { "a=${a} b=[${b}] c=${c}": }
}
class { 'withdefaults': a => undef, c => 'given' }
