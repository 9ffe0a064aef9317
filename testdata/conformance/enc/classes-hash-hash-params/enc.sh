#!/bin/sh
# ENC: receives the node name as $1, prints YAML.
cat <<EOF
classes:
  users:
    accounts:
      alice:
        uid: 1001
        shell: /bin/bash
      bob:
        uid: 1002
        shell: /bin/zsh
EOF
