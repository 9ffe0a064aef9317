class shadow {
  $hostname = 'local-name'
  notify { "in-class=${hostname} top=${::hostname} fact=${facts['hostname']}": }
}
include shadow
notify { "outside=${hostname}": }
