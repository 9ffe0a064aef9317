# As ronin_puppet's provisioning scripts write it for the node.
node 'macmini-m4-130.test.releng.mdc1.mozilla.com' {
  include ::roles_profiles::roles::tart_worker
}
