#!/bin/sh
# ENC: receives the node name as $1, prints YAML.
cat <<EOF
classes:
  common:
  ntp:
    ntpserver: "0.pool.ntp.org"
EOF
