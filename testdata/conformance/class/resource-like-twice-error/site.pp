class base ($motd = 'hello') {
  notify { $motd: }
}
class { 'base': motd => 'one' }
class { 'base': motd => 'two' }
