#!/bin/bash
# expect: 1 MaxExpressionDepth
# command: parse --validate
printf '$x = f'
yes '()' | head -n 1000000 | tr -d '\n'
echo
