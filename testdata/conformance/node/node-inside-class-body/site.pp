class wrapper {
  node 'web01.example.com' {}
}
node default {}
