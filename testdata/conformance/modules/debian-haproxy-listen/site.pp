include haproxy
haproxy::listen { 'web': collect_exported => false, ipaddress => '0.0.0.0', ports => '80' }
haproxy::balancermember { 'web01': listening_service => 'web', server_names => 'web01', ipaddresses => '10.0.0.1', ports => '8080' }
