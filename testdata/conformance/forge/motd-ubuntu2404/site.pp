class { 'motd':
  template             => 'motd/motd.epp',
  dynamic_motd         => false,
  windows_motd_title   => 'unused',
}
