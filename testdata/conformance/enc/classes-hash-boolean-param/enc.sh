#!/bin/sh
# ENC: receives the node name as $1, prints YAML.
cat <<EOF
classes:
  ntp:
    ntpserver: "time.example.com"
    iburst: true
EOF
