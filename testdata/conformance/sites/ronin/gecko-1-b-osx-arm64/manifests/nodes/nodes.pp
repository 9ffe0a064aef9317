# As ronin_puppet's provisioning scripts write it for the node.
node 'macmini-m4-121.test.releng.mdc1.mozilla.com' {
  include ::roles_profiles::roles::gecko_1_b_osx_arm64
}
