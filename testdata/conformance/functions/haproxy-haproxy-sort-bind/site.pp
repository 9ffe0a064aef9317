notify { 'call 1: mixed addresses': message => haproxy::sort_bind({
  '10.0.0.10:80' => ['ssl'], '10.0.0.9:80' => [], ':443' => 'crt /tmp/x.pem', '192.168.1.1:8080' => undef, '*:8443' => ['ssl', 'crt', '/tmp/y'],
}) }
notify { 'call 2: empty': message => haproxy::sort_bind({}) }
notify { 'call 3: IPv6 and names': message => haproxy::sort_bind({ 'ipv6@:::80' => [], '/var/run/h.sock' => [], '1.2.3.4:1' => [] }) }
