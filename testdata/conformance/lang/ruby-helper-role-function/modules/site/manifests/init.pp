class site {
  $r = site_role('staging')
  notify { "site: ${r} ${role} ${::role} ${role_tier}": }
  file { '/etc/motd': ensure => file, content => 'welcome' }
  $d = site::describe('node')
  notify { "describe: ${d[0]} ${d[1]} ${d[2]} ${d[3]}": }
  notify { "runtime: ${d[4] =~ Runtime}": }
  notify { "catalog: ${d[5]} ${d[6]}": }
}
