$sorted = extlib::sort_by_version(['10.0.1', '9.4', '10.0.0', '1.2.3'])
$dirs = extlib::dir_split('/opt/app/releases/current')
$net = extlib::cidr_to_network('10.1.2.3/16')
notify { "sorted=${sorted}": }
notify { "dirs=${dirs}": }
notify { "net=${net}": }
notify { "has_apache=${extlib::has_module('puppetlabs/apache')}": }
extlib::mkdir_p('/tmp/forge-a/deep/tree')
file { '/tmp/forge-a/deep/tree/file':
  ensure  => file,
  content => "x\n",
}
