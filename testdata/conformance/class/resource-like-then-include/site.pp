class base ($motd = 'hello') {
  notify { $motd: }
}
class { 'base': motd => 'first' }
include base
