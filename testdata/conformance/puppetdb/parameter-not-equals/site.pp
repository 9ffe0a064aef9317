node /^web/ {
  $content = $facts['hostname'] ? { 'web01' => 'skip', default => 'keep' }
  @@file { "/tmp/exported/${facts['hostname']}": content => $content }
}
node 'mon.example.com' {
  File <<| content != 'skip' |>>
}
