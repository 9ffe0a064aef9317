# As ronin_puppet's provisioning scripts write it for the node.
node 'install2.test.releng.mdc1.mozilla.com' {
  include ::roles_profiles::roles::services_deploystudio
}
