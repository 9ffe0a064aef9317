# As ronin_puppet's provisioning scripts write it for the node.
node 'macmini-m2-44.test.releng.mdc1.mozilla.com' {
  include ::roles_profiles::roles::mac_v4_signing_dep
}
