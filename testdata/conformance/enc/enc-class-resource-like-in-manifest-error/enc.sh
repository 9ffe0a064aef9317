#!/bin/sh
# ENC: receives the node name as $1, prints YAML.
cat <<EOF
classes:
  ntp:
    ntpserver: enc.example.com
EOF
