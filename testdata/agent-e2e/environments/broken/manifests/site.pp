# scripts/agent-e2e: a compile error must reach the agent with Puppet's message.
node default {
  include e2e_no_such_class
}
