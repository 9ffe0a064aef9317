#!/bin/bash
# expect: 1 MaxExpressionDepth
# The same 8 MB operator chain, compiled (as a catalog request would).
printf '$x = 1'
yes ' + 1' | head -n 2000000 | tr -d '\n'
echo
