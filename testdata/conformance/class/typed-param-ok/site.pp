class app (Integer $port = 8080, Array[String] $users = ['alice'], Optional[String] $motd = undef, Enum['on', 'off'] $state = 'on') {
  notify { "port=${port} users=${users} motd=${motd} state=${state}": }
}
class { 'app': port => 9090, users => ['bob', 'carol'] }
