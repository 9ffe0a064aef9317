node 'app_01-blue.example.com' {
  notify { 'matched app_01-blue': }
}
