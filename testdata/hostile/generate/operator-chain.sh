#!/bin/bash
# expect: 1 MaxExpressionDepth
# command: parse --validate
# $x = 1 + 1 + ... (2M terms, 8 MB): the tree is 2M deep; it once overflowed
# the Go stack in the validator.
printf '$x = 1'
yes ' + 1' | head -n 2000000 | tr -d '\n'
echo
