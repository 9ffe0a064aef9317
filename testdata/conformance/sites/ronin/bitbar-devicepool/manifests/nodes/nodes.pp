# As ronin_puppet's provisioning scripts write it for the node.
node 'devicepool-0.relops.mozops.net' {
  include ::roles_profiles::roles::bitbar_devicepool
}
