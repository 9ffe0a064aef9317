#!/bin/sh
# ENC: receives the node name as $1, prints YAML.
cat <<EOF
classes:
  limits:
    ratio: 0.5
EOF
