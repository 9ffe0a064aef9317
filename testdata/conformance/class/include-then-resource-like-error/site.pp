class base ($motd = 'hello') {
  notify { $motd: }
}
include base
class { 'base': motd => 'two' }
