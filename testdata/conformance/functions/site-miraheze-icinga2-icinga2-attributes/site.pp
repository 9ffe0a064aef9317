$attrs = {
  'address' => '127.0.0.1',
  'check_command' => 'hostalive',
  'vars' => { 'os' => 'Linux', 'disks' => { 'disk /' => { 'disk_partitions' => '/' } }, 'level1' => { 'level2' => { '+' => true, 'x' => 'y' } } },
  'max_check_attempts' => '3',
  'check_interval' => '1m',
  'groups' => ['+', 'linux-servers', 'NodeName'],
  'enable_notifications' => true,
  'assign where' => ['host.vars.os == Linux && "web" in host.groups'],
  'display_name' => 'host.name + " (" + NodeName + ")"',
  'notes' => '-:"raw string"',
  'command' => '{{ return macro("$address$") }}',
  'timeout' => 'len(host.vars.x) * 2',
  'secret' => Sensitive('s3cret'),
  'env' => { '+' => true, 'A' => 'b' },
  'empty' => {},
  'list' => ['a', ['b', 'c'], { 'k' => 'v' }],
}
notify { 'call 1: attributes': message => icinga2::icinga2_attributes($attrs, ['host', 'service'], { 'NodeName' => 'x', 'ZoneName' => 'z' }) }
notify { 'call 2: indent and vars array': message => icinga2::icinga2_attributes({ 'vars' => [{ 'a' => '1' }, 'config', { 'c' => { 'd' => { '+' => true, 'e' => '5' } } }], 'vars2' => '+ other' }, [], {}, 4) }
notify { 'call 3: vars string merge': message => icinga2::icinga2_attributes({ 'vars' => '+ config', 'n' => '+ -14' }, [], {}) }
