#!/bin/sh
# ENC: receives the node name as $1, prints YAML.
cat <<EOF
classes:
  aptsetup:
    additional_apt_repos:
      - deb localrepo.example.com/ubuntu lucid production
      - deb localrepo.example.com/ubuntu lucid vendor
EOF
