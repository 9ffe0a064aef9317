#!/bin/bash
# expect: 1 MaxExpressionDepth
# command: parse --validate
printf '$x = '
yes '(' | head -n 1000000 | tr -d '\n'
printf 1
yes ')' | head -n 1000000 | tr -d '\n'
echo
