# As ronin_puppet's provisioning scripts write it for the node.
node 'macmini-r8-18.test.releng.mdc1.mozilla.com' {
  include ::roles_profiles::roles::gecko_t_osx_1015_r8
}
