node 'web01.example.com' {
  include puppet
}
