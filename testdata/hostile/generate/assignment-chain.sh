#!/bin/bash
# expect: 1 MaxExpressionDepth
# command: parse --validate
# $a = $a = ... is right-recursive in the parser itself.
yes '$a = ' | head -n 1000000 | tr -d '\n'
echo 1
