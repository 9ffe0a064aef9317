#!/bin/sh
# ENC: receives the node name as $1, prints YAML.
cat <<EOF
classes:
  common:
  puppet:
EOF
