# As ronin_puppet's provisioning scripts write it for the node.
node 'macmini-r8-368.test.releng.mdc1.mozilla.com' {
  include ::roles_profiles::roles::nss_1_b_osx_1015
}
