define d2() { notify {'z':} }
d2 {'q': noop => true, schedule => 's', tag => 'tt'}
schedule{'s':}
class x { notify {'inx':} }
class { 'x': noop => true, loglevel => 'debug' }
stage { 'pre': before => Stage['main'] }
class y { notify {'iny':} }
class { 'y': stage => 'pre' }
define d3() { notify {"in-${title}":} }
class z { d3 { 'zz': } }
class { 'z': noop => false, audit => 'all' }
node default { notify {'innode':} }
