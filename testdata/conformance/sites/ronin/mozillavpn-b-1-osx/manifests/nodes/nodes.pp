# As ronin_puppet's provisioning scripts write it for the node.
node 'macmini-r8-362.test.releng.mdc1.mozilla.com' {
  include ::roles_profiles::roles::mozillavpn_b_1_osx
}
