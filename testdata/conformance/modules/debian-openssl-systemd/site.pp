include openssl
openssl::certificate::x509 { 'web': country => 'CH', organization => 'Example', commonname => 'web.example.com' }
include systemd
systemd::unit_file { 'app.service': content => "[Service]\nExecStart=/bin/true\n" }
include zookeeper
include etcd
