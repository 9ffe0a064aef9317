# As ronin_puppet's provisioning scripts write it for the node.
node 'macmini-r8-139.test.releng.mdc1.mozilla.com' {
  include ::roles_profiles::roles::gecko_3_b_osx_1015
}
