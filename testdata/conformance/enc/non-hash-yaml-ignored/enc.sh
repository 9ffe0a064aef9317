#!/bin/sh
cat <<EOF
- common
- puppet
EOF
