kmod::load { 'br_netfilter': }
kmod::blacklist { 'pcspkr': }
kmod::option { 'bonding mode':
  module => 'bonding',
  option => 'mode',
  value  => '1',
}
