node 'web01' {
  notify { 'web01 from fqdn fact': }
}
node default {
  notify { 'default node': }
}
