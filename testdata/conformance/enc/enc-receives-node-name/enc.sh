#!/bin/sh
# The node name arrives as $1; echo it back as a parameter.
cat <<EOF
parameters:
  classified_as: "$1"
  argc: "$#"
EOF
