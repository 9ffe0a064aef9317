#!/bin/sh
# ENC: receives the node name as $1, prints YAML.
cat <<EOF
classes:
  limits:
    max_files: 4096
    ratio: 0.75
EOF
