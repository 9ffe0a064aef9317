unless $facts['os']['family'] == 'RedHat' {
  notify { 'not-redhat': }
}
unless 1 < 2 {
  notify { 'never': }
} else {
  notify { 'unless-else-branch': }
}
