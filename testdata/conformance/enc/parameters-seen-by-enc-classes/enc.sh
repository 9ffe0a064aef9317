#!/bin/sh
# ENC: receives the node name as $1, prints YAML.
cat <<EOF
classes:
  - motd
parameters:
  motd_text: Managed by the ENC
EOF
