#!/bin/sh
# ENC: receives the node name as $1, prints YAML.
cat <<EOF
parameters:
  ntp_servers:
    - 0.pool.ntp.org
    - ntp.example.com
  limits:
    nofile: 1024
  iburst: true
  port: 123
EOF
