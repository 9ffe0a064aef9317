node 'agent1.e2e.test', 'agent2.e2e.test' {
  include e2e
}

node default {
  fail("no node definition for ${trusted['certname']}")
}
