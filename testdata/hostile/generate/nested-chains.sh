#!/bin/bash
# expect: 1 MaxExpressionDepth
# command: parse --validate
# Chains of 5,000 terms nested in parentheses 200 deep: each chain is
# within the parser's recursion, the tree is a million deep.
chain=$(yes ' + 1' | head -n 5000 | tr -d '\n')
printf '$x = '
for ((i = 0; i < 200; i++)); do printf '('; done
printf '1'
for ((i = 0; i < 200; i++)); do printf '%s)' "$chain"; done
echo
