#!/bin/sh
case "$1" in
  db*) role=database ;;
  *) role=generic ;;
esac
cat <<EOF
classes:
  - role::$role
EOF
