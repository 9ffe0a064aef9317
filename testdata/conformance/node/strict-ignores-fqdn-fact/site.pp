node 'web01.example.com' {
  notify { 'matched by fqdn fact': }
}
node default {
  notify { 'default node': }
}
