# As ronin_puppet's provisioning scripts write it for the node.
node 'macmini-r8-122.test.releng.mdc1.mozilla.com' {
  include ::roles_profiles::roles::applicationservices_1_b_osx_1015
}
