#!/bin/sh
# ENC: receives the node name as $1, prints YAML.
cat <<EOF
parameters:
  osfamily: FromENC
EOF
