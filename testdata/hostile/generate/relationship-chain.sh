#!/bin/bash
# expect: 1 MaxExpressionDepth
printf "notify { 'a': }"
yes " -> Notify['a']" | head -n 500000 | tr -d '\n'
echo
