# As ronin_puppet's provisioning scripts write it for the node.
node 'macmini-m4-200.test.releng.mdc1.mozilla.com' {
  include ::roles_profiles::roles::oci_registry_host
}
