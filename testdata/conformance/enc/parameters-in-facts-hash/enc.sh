#!/bin/sh
# ENC: receives the node name as $1, prints YAML.
cat <<EOF
parameters:
  datacenter: ams1
EOF
