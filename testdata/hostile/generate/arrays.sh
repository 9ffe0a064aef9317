#!/bin/bash
# expect: 1 MaxExpressionDepth
printf '$x = '
yes '[' | head -n 1000000 | tr -d '\n'
yes ']' | head -n 1000000 | tr -d '\n'
echo
