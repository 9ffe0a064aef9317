# As ronin_puppet's provisioning scripts write it for the node.
node 'maas-region-1.test.releng.mdc1.mozilla.com' {
  include ::roles_profiles::roles::maas_region
}
