# As ronin_puppet's provisioning scripts write it for the node.
node 't-linux64-ms-001.test.releng.mdc1.mozilla.com' {
  include ::roles_profiles::roles::gecko_t_linux_2404_talos
}
