node 'db02.example.net' {
  notify { 'hostname.domain': }
}
node default {
  notify { 'default node': }
}
